package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.CatalogException;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Language;
import dev.sympathy.catalog.ParamSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.catalog.VariantSpec;
import dev.sympathy.jmh.support.QuietJitProfiler;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.openjdk.jmh.profile.CompilerProfiler;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * An experiment at one preset, as its {@link JmhExperiment} plans and converts it: its catalog
 * entry ({@code experiments/<id>.toml}), the preset, and its benchmark classes (those in its
 * package). Each catalog param a benchmark declares as a JMH {@code @Param}
 * (its lower camel case: {@code size_bytes} is {@code sizeBytes}) is set to the catalog's values
 * by {@link #options}, and so is {@code variant} (Java's names).
 *
 * <pre>{@code
 * at.options(MemoryWalk.class)               // JMH's options: the preset's iterations, the catalog's params
 * at.max("size_bytes")                       // 134217728 (memory-walk at quick)
 * at.variantParam("jctools-spsc", "element") // "boxed-u32": the variant's own value
 * at.variantParam("p1c1", "element")         // "u32": the experiment's at the preset
 * }</pre>
 *
 * @param spec the experiment's catalog entry
 * @param preset the preset of the run
 * @param benchmarkClasses its benchmark classes, by name
 */
public record ExperimentAt(ExperimentSpec spec, Preset preset, List<Class<?>> benchmarkClasses) {
    public ExperimentAt {
        benchmarkClasses = List.copyOf(benchmarkClasses);
    }

    /** JMH's iterations at the preset. */
    public JmhIterations iterations() {
        return JmhIterations.at(preset);
    }

    /** The Java variants the preset runs, by Java's names. */
    public List<String> javaVariants() {
        return spec.variantsAt(Language.JAVA, preset);
    }

    /**
     * Options for the benchmarks of {@code benchmarkClass} at the preset: JMH's iterations, the
     * catalog's values of {@code variant} and of each param the class declares, the runner's
     * profilers, fail-on-error.
     */
    public ChainedOptionsBuilder options(Class<?> benchmarkClass) {
        return options(benchmarkClass, javaVariants());
    }

    /** {@link #options}, running only {@code variants} (a JMH param's values add up: set them once). */
    public ChainedOptionsBuilder options(Class<?> benchmarkClass, List<String> variants) {
        final JmhIterations iterations = iterations();
        final Set<String> declared = JmhCase.declaredParams(benchmarkClass);
        // the variants are a `variant` param's values, or else the benchmark methods (kebab case)
        final String methods = declared.contains("variant") ? ""
                : "(" + variants.stream().map(ExperimentAt::lowerCamel).collect(Collectors.joining("|")) + ")$";
        final ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + benchmarkClass.getName().replace(".", "\\.") + "\\." + methods)
                .warmupIterations(iterations.warmupIterations())
                .measurementIterations(iterations.measurementIterations())
                .warmupTime(TimeValue.milliseconds(iterations.warmupMillis()))
                .measurementTime(TimeValue.milliseconds(iterations.measurementMillis()))
                .forks(iterations.forks())
                // before each measured iteration, a wait for the compilations the warm-up queued
                // (support/QuietJitProfiler); added first, so the count below starts after it
                .addProfiler(QuietJitProfiler.class)
                // the JIT's compile time in each iteration: a measured iteration that compiled ran
                // some of its time in the interpreter's or C1's code (the runner warns, the result
                // carries it as stats.jit_ms)
                .addProfiler(CompilerProfiler.class)
                .shouldFailOnError(true);
        if (declared.contains("variant")) {
            options.param("variant", variants.toArray(String[]::new));
        }
        for (ParamSpec param : spec.params()) {
            final String name = lowerCamel(param.name());
            if (declared.contains(name)) {
                options.param(name, param.valuesAt(preset).stream().map(String::valueOf).toArray(String[]::new));
            }
        }
        return options;
    }

    /** The catalog's values of {@code param} at the preset; an error names a missing param. */
    public List<Object> values(String param) {
        return spec.param(param).orElseThrow(() -> new CatalogException("experiments/" + spec.name()
                + ".toml has no param `" + param + "`, which the Java runner needs")).valuesAt(preset);
    }

    /** The largest integer value of {@code param} at the preset. */
    public long max(String param) {
        return values(param).stream().mapToLong(v -> {
            if (v instanceof Long n) {
                return n;
            }
            throw new CatalogException("experiments/" + spec.name() + ".toml: param `" + param + "` at "
                    + preset.label() + " holds " + v + ", not an integer");
        }).max().orElseThrow();
    }

    /**
     * The value of {@code param} for the Java variant {@code javaVariant}: the one the variant
     * fixes ({@code params = { element = "boxed-u32" }}), else the experiment's one value at the
     * preset.
     *
     * @throws CatalogException when the catalog has no such Java variant, or the variant fixes no
     *     value and the experiment has none or a list
     */
    public Object variantParam(String javaVariant, String param) {
        final VariantSpec variant = spec.variants().stream()
                .filter(v -> v.languages().contains(Language.JAVA) && v.nameIn(Language.JAVA).equals(javaVariant))
                .findFirst()
                .orElseThrow(() -> new CatalogException("experiments/" + spec.name() + ".toml has no Java variant `"
                        + javaVariant + "` (Java's: " + String.join(", ", spec.variantsIn(Language.JAVA)) + ")"));
        if (variant.params().containsKey(param)) {
            return variant.params().get(param);
        }
        final List<Object> values = values(param);
        if (values.size() != 1) {
            throw new CatalogException("experiments/" + spec.name() + ".toml: variant `" + variant.name()
                    + "` fixes no `" + param + "`, and the experiment's at " + preset.label() + " is a list " + values);
        }
        return values.get(0);
    }

    /**
     * {@code size_bytes} to {@code sizeBytes}: a catalog param's JMH {@code @Param} name; and
     * {@code cas-val} to {@code casVal}: a variant's benchmark method.
     */
    public static String lowerCamel(String snake) {
        final StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : snake.toCharArray()) {
            if (c == '_' || c == '-') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }
}
