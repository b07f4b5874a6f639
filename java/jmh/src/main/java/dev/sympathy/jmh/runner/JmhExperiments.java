package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Language;
import dev.sympathy.catalog.Preset;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The experiments under JMH, found rather than listed. JMH's annotation processor writes the list
 * of every benchmark class at build time ({@code META-INF/BenchmarkList}); each package holding
 * benchmark classes is one experiment's, and holds its one {@link JmhExperiment} beside them
 * ({@link PackageClasses}). So a new experiment is its catalog entry, its package (benchmark
 * classes and experiment class) and its docs; nothing in the runner names it.
 *
 * <p>A missing piece shows in {@link #problems} (and the runner refuses to start, naming it):
 * a package of benchmark classes without an experiment class, or with two; an experiment class
 * the runner cannot make (it needs a public constructor without arguments); two classes claiming
 * one id; an id the catalog has no entry for; an entry that gives Java no variant.
 *
 * <pre>{@code
 * JmhExperiments found = JmhExperiments.found();
 * found.problems(catalog)                // [] when every piece is there
 * found.inCatalogOrder(catalog)          // [atomic-increment, back-pressure, dispatch, ...]
 * found.byId("memory-walk")              // Optional[MemoryWalkExperiment]
 * found.at(experiment, catalog, Preset.QUICK).options(MemoryWalk.class)
 * }</pre>
 */
public final class JmhExperiments {
    private final Map<String, JmhExperiment> byId;
    private final Map<JmhExperiment, List<Class<?>>> benchmarkClasses;
    private final Map<String, JmhExperiment> byBenchmarkClass;
    private final List<String> problems;

    private JmhExperiments(Map<String, JmhExperiment> byId, Map<JmhExperiment, List<Class<?>>> benchmarkClasses,
            Map<String, JmhExperiment> byBenchmarkClass, List<String> problems) {
        this.byId = byId;
        this.benchmarkClasses = benchmarkClasses;
        this.byBenchmarkClass = byBenchmarkClass;
        this.problems = problems;
    }

    /** Found once per JVM: the list and the classes do not change while it runs. */
    private static final class Found {
        static final JmhExperiments FOUND = of(benchmarkClassNames());
    }

    /** The experiments of the benchmark classes in JMH's list on the class path. */
    public static JmhExperiments found() {
        return Found.FOUND;
    }

    /** The benchmark classes in JMH's list ({@code META-INF/BenchmarkList}), by name, sorted. */
    static List<String> benchmarkClassNames() {
        final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        final TreeSet<String> names = new TreeSet<>();
        for (BenchmarkListEntry entry : BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(quiet, VerboseMode.SILENT), List.of())) {
            names.add(entry.getUserClassQName());
        }
        return List.copyOf(names);
    }

    /**
     * The experiments beside the benchmark classes {@code classNames}: one per package, the
     * {@link JmhExperiment} class in it. What is missing or wrong is a {@link #problems problem}.
     */
    static JmhExperiments of(Collection<String> classNames) {
        final List<String> problems = new ArrayList<>();
        final Map<String, List<Class<?>>> byPackage = new LinkedHashMap<>();
        for (String name : classNames) {
            load(name, problems).ifPresent(benchmark ->
                    byPackage.computeIfAbsent(benchmark.getPackageName(), p -> new ArrayList<>()).add(benchmark));
        }
        final Map<String, JmhExperiment> byId = new LinkedHashMap<>();
        final Map<JmhExperiment, List<Class<?>>> benchmarkClasses = new LinkedHashMap<>();
        final Map<String, JmhExperiment> byBenchmarkClass = new LinkedHashMap<>();
        byPackage.forEach((pkg, benchmarks) -> {
            final Optional<JmhExperiment> made = experimentBeside(pkg, benchmarks, problems);
            if (made.isEmpty()) {
                return;
            }
            final JmhExperiment experiment = made.get();
            final JmhExperiment other = byId.putIfAbsent(experiment.id(), experiment);
            if (other != null) {
                problems.add(experiment.getClass().getName() + " and " + other.getClass().getName()
                        + " both say they run experiment '" + experiment.id() + "': one experiment, one package");
                return;
            }
            benchmarkClasses.put(experiment, List.copyOf(benchmarks));
            benchmarks.forEach(benchmark -> byBenchmarkClass.put(benchmark.getName(), experiment));
        });
        return new JmhExperiments(byId, benchmarkClasses, byBenchmarkClass, List.copyOf(problems));
    }

    /** The class {@code name}, loaded (not initialised); empty with a problem when it cannot be. */
    private static Optional<Class<?>> load(String name, List<String> problems) {
        try {
            return Optional.of(Class.forName(name, false, JmhExperiments.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            problems.add("class " + name + " cannot be loaded (" + e + "): rebuild the jar");
            return Optional.empty();
        }
    }

    /**
     * The one {@link JmhExperiment} class in package {@code pkg}, made; empty with a problem when
     * there is none, more than one, or it cannot be made.
     */
    private static Optional<JmhExperiment> experimentBeside(String pkg, List<Class<?>> benchmarks, List<String> problems) {
        final List<String> benchmarkNames = benchmarks.stream().map(Class::getSimpleName).toList();
        final List<Class<?>> experiments = new ArrayList<>();
        for (String name : PackageClasses.beside(benchmarks.get(0))) {
            load(name, problems).filter(type -> JmhExperiment.class.isAssignableFrom(type) && !type.isInterface())
                    .ifPresent(experiments::add);
        }
        if (experiments.isEmpty()) {
            problems.add("package " + pkg + " holds the benchmark classes " + benchmarkNames + " but no "
                    + JmhExperiment.class.getSimpleName() + ": add its experiment class beside them, a public class"
                    + " implementing " + JmhExperiment.class.getName() + " (docs/adding-an-experiment.md)");
            return Optional.empty();
        }
        if (experiments.size() > 1) {
            problems.add("package " + pkg + " holds " + experiments.size() + " experiment classes "
                    + experiments.stream().map(Class::getSimpleName).toList() + " beside the benchmark classes "
                    + benchmarkNames + ": one experiment a package");
            return Optional.empty();
        }
        final Class<?> type = experiments.get(0);
        if (!Modifier.isPublic(type.getModifiers()) || Modifier.isAbstract(type.getModifiers())) {
            problems.add(type.getName() + " must be a public, concrete class for the runner to make it");
            return Optional.empty();
        }
        try {
            return Optional.of((JmhExperiment) type.getConstructor().newInstance());
        } catch (NoSuchMethodException | IllegalAccessException e) {
            problems.add(type.getName() + " needs a public constructor without arguments for the runner to make it");
        } catch (InstantiationException | InvocationTargetException e) {
            problems.add(type.getName() + " cannot be made: " + (e.getCause() != null ? e.getCause() : e));
        }
        return Optional.empty();
    }

    /**
     * What is missing or wrong: the problems of finding the experiments, then, against
     * {@code catalog}, each experiment whose id has no catalog entry or whose entry gives Java no
     * variant. Empty when every piece is there.
     */
    public List<String> problems(Catalog catalog) {
        final List<String> out = new ArrayList<>(problems);
        final List<String> names = catalog.experiments().stream().map(ExperimentSpec::name).toList();
        for (JmhExperiment experiment : byId.values()) {
            final String type = experiment.getClass().getName();
            final Optional<ExperimentSpec> spec = catalog.experiments().stream()
                    .filter(s -> s.name().equals(experiment.id())).findFirst();
            if (spec.isEmpty()) {
                out.add(type + " runs experiment '" + experiment.id() + "', which the catalog has no entry for: add"
                        + " experiments/" + experiment.id() + ".toml, or correct its id() (the catalog has "
                        + String.join(", ", names) + ")");
            } else if (spec.get().variantsIn(Language.JAVA).isEmpty()) {
                out.add("experiments/" + experiment.id() + ".toml gives Java no variant, yet " + type + " runs it under"
                        + " JMH: add \"java\" to the languages of the variants its benchmarks run");
            }
        }
        return out;
    }

    /** The problems of finding the experiments alone (no catalog needed). */
    List<String> problems() {
        return problems;
    }

    /** The experiments found, in the catalog's order (the order of {@code run all}); ids it lacks last. */
    public List<JmhExperiment> inCatalogOrder(Catalog catalog) {
        final List<JmhExperiment> out = new ArrayList<>();
        for (ExperimentSpec spec : catalog.experiments()) {
            byId(spec.name()).ifPresent(out::add);
        }
        byId.values().stream().filter(e -> !out.contains(e)).forEach(out::add);
        return out;
    }

    /** Every experiment found, in the order of their packages' benchmark classes. */
    public List<JmhExperiment> all() {
        return List.copyOf(byId.values());
    }

    /** The experiment whose id is {@code id}. */
    public Optional<JmhExperiment> byId(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The benchmark classes beside {@code experiment}, by name. */
    public List<Class<?>> benchmarkClasses(JmhExperiment experiment) {
        return benchmarkClasses.getOrDefault(experiment, List.of());
    }

    /**
     * The experiment of case {@code c}'s benchmark class.
     *
     * @throws IllegalArgumentException when no experiment found has that benchmark class
     */
    public JmhExperiment of(JmhCase c) {
        final JmhExperiment experiment = byBenchmarkClass.get(c.className());
        if (experiment == null) {
            throw new IllegalArgumentException("no experiment for JMH benchmark class " + c.className()
                    + " (the experiments' benchmark classes: " + String.join(", ", byBenchmarkClass.keySet()) + ")");
        }
        return experiment;
    }

    /** {@code experiment} at {@code preset} with its entry of {@code catalog} and its benchmark classes. */
    public ExperimentAt at(JmhExperiment experiment, Catalog catalog, Preset preset) {
        return new ExperimentAt(catalog.experiment(experiment.id()), preset, benchmarkClasses(experiment));
    }
}
