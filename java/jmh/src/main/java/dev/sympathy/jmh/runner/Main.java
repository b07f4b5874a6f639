package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.CatalogException;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.results.EnvRecord;
import dev.sympathy.results.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The seed-style runner of the JMH benchmarks:
 * <pre>
 * java -Dsympathy.experiments=&lt;repo&gt;/experiments -jar benchmarks.jar run &lt;experiment|all&gt; [--smoke|--quick|--full] [--json|--plan] [--verify]
 * java -Dsympathy.experiments=&lt;repo&gt;/experiments -jar benchmarks.jar list
 * </pre>
 * The experiments are found, not listed: beside the benchmark classes of JMH's own list, each
 * package holds its {@link JmhExperiment}, and the runner refuses to start when a piece is missing
 * ({@link JmhExperiments#problems}). Sizes, variants and every other param come from the
 * experiment catalog at the chosen preset (the folder in the system property
 * {@code sympathy.experiments}); {@code --plan} prints the result groups the run would emit
 * ({@link Plan}) instead of running it, and {@code --verify} checks after the run that every one
 * of them came back as it should ({@link ResultCheck}), exiting 1 otherwise. {@code list} prints
 * the experiments under JMH, one a line (how {@code java/sidecar run} tells them from its own).
 * It runs JMH programmatically (forks stay on), then converts JMH's JSON result and the
 * benchmarks' extras into the results schema (docs/results.md): with {@code --json} an env line
 * and one line per result on stdout, otherwise one human line per result. JMH's own progress
 * goes to stderr either way. Plain JMH stays available as {@code java -cp benchmarks.jar
 * org.openjdk.jmh.Main ...}.
 */
public final class Main {
    /** The env record's {@code tool}. */
    static final String TOOL = "sympathy-jmh 0.1.0 (JMH 1.37)";
    /**
     * The exit status of a run whose own check failed because the machine was busy
     * ({@code EX_TEMPFAIL}, as {@code sympathy run}); {@code sympathy compare} runs it again.
     */
    static final int MACHINE_BUSY = 75;
    /** What JMH says when another JMH run on this machine holds its lock file. */
    static final String JMH_LOCK_TAKEN = "Unable to acquire the JMH lock";

    private Main() {
    }

    public static void main(String[] args) throws IOException, RunnerException {
        final int status = run(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    static int run(String[] args) throws IOException, RunnerException {
        final String usage = usage();
        if (java.util.Arrays.asList(args).contains("--help") || java.util.Arrays.asList(args).contains("-h")) {
            System.out.println(usage);
            return 0;
        }
        final boolean list = args.length == 1 && args[0].equals("list");
        if (!list && (args.length < 2 || !args[0].equals("run"))) {
            System.err.println(usage);
            return 2;
        }
        Preset preset = Preset.DEFAULT;
        boolean json = false;
        boolean plan = false;
        boolean verify = false;
        List<String> only = List.of();
        for (int i = 2; i < args.length; i++) {
            final Optional<Preset> flag = Preset.fromFlag(args[i]);
            if (flag.isPresent()) {
                preset = flag.get();
            } else if (args[i].equals("--json")) {
                json = true;
            } else if (args[i].equals("--plan")) {
                plan = true;
            } else if (args[i].equals("--verify")) {
                verify = true;
            } else if (args[i].equals("--variants") && i + 1 < args.length) {
                only = List.of(args[++i].split(","));
            } else {
                System.err.println("unknown option '" + args[i] + "'\n" + usage);
                return 2;
            }
        }
        final JmhExperiments found = JmhExperiments.found();
        final Catalog catalog;
        final List<JmhExperiment> experiments = new ArrayList<>();
        try {
            final Catalog whole = Catalog.fromProperty();
            final List<String> problems = found.problems(whole);
            if (!problems.isEmpty()) {
                System.err.println("the JMH experiments are incomplete:\n  " + String.join("\n  ", problems));
                return 2;
            }
            if (list) {
                found.inCatalogOrder(whole).forEach(e -> System.out.println(e.id()));
                return 0;
            }
            catalog = only.isEmpty() ? whole : whole.onlyJavaVariants(only);
            if (args[1].equals("all")) {
                experiments.addAll(found.inCatalogOrder(catalog));
            } else {
                final Optional<JmhExperiment> one = found.byId(args[1]);
                if (one.isEmpty()) {
                    System.err.println("unknown experiment '" + args[1] + "'\n" + usage);
                    return 2;
                }
                experiments.add(one.get());
            }
        } catch (CatalogException e) {
            System.err.println("the experiment catalog: " + e.getMessage());
            return 2;
        }

        final PrintStream stdout = System.out;
        if (plan) {
            for (JmhExperiment experiment : experiments) {
                for (Map<String, Object> line : Plan.lines(experiment, found.at(experiment, catalog, preset),
                        catalog.common())) {
                    stdout.println(Json.write(line));
                }
            }
            return 0;
        }
        if (json) {
            stdout.println(Json.write(EnvRecord.collect(TOOL)));
        } else {
            final Map<String, Object> env = EnvRecord.collect(TOOL);
            stdout.println(env.get("cpu_model") + " | " + env.get("cores") + " cores | caches " + env.get("caches")
                    + " | THP " + env.get("thp") + " | Linux " + env.get("kernel") + " | " + env.get("java"));
        }
        final Map<String, Object> common = new LinkedHashMap<>();
        common.put("preset", preset.label());
        common.put("pinning", Pinning.mode());
        final Converter converter = new Converter(found, catalog, preset, common);
        final List<String> unverified = new ArrayList<>();
        try {
            for (JmhExperiment experiment : experiments) {
                final ExperimentAt at = found.at(experiment, catalog, preset);
                final List<Map<String, Object>> records = new ArrayList<>();
                for (JmhRun run : JmhRun.withCases(experiment.runs(at))) {
                    for (Map<String, Object> rec : runJmh(run, converter, experiment.takesLatencyFlags(),
                            JmhIterations.forkJvmArgs(preset))) {
                        stdout.println(json ? Json.write(rec) : human(rec));
                        records.add(rec);
                    }
                }
                if (verify) {
                    final List<String> problems = ResultCheck.problems(experiment,
                            Plan.groups(experiment, at, catalog.common()), records, catalog);
                    System.err.println("verify: " + experiment.id() + ": " + records.size() + " results, "
                            + (problems.isEmpty() ? "every planned group back and checked" : problems.size() + " problems"));
                    unverified.addAll(problems);
                }
            }
        } catch (MachineBusyException e) {
            System.err.println("error: the machine was busy: " + e.getMessage()
                    + "; sympathy compare retries such runs; rerun on a quiet machine");
            return MACHINE_BUSY;
        }
        if (!unverified.isEmpty()) {
            System.err.println("error: the results are not what the plan promised:\n  " + String.join("\n  ", unverified));
            return 1;
        }
        return 0;
    }

    /**
     * The usage text: every experiment of the catalog, those under JMH (found:
     * {@link JmhExperiments}, run here) and the others, which the sidecar runs itself
     * ({@code java/sidecar run NAME}), so that {@code java/sidecar run --help} lists what
     * {@code java/sidecar run} takes.
     */
    static String usage() {
        final JmhExperiments found = JmhExperiments.found();
        final List<String> jmh = new ArrayList<>();
        final List<String> sidecar = new ArrayList<>();
        try {
            final Catalog catalog = Catalog.fromProperty();
            found.inCatalogOrder(catalog).forEach(e -> jmh.add(e.id()));
            catalog.experiments().stream().map(ExperimentSpec::name).filter(name -> !jmh.contains(name))
                    .forEach(sidecar::add);
        } catch (CatalogException e) {
            found.all().forEach(experiment -> jmh.add(experiment.id()));
        }
        return "usage: run <experiment|all> [--smoke|--quick|--full] [--json|--plan] [--variants V,..] [--verify]\n"
                + "       list\n"
                + "  (--variants: Java's variant names, to run only those; all: every experiment under JMH;\n"
                + "   --verify: after the run, check that every result group --plan lists came back, checked;\n"
                + "   list: the experiments under JMH, one a line)\n"
                + "  experiments under JMH: " + String.join(", ", jmh) + "\n"
                + (sidecar.isEmpty() ? "" : "  experiments the sidecar runs (java/sidecar run NAME): "
                        + String.join(", ", sidecar) + "\n");
    }

    /** A benchmark's own check failed because the machine was busy ({@code Extras.machineBusy}). */
    static final class MachineBusyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MachineBusyException(String reason) {
            super(reason);
        }
    }

    /**
     * System property holding the latency flags of java/launcher.sh ({@code launcher_latency_jvm_flags}:
     * the serial collector, no perf data, no periodic safepoint), which java/jmh/run passes: the flags
     * the sidecar's JVMs run with, so a JMH fork and a sidecar run the same JVM, and no concurrent GC
     * thread competes for the two measured cores of a small machine. The JIT's compiler threads cannot
     * be kept off them; the warm-up iterations take their work.
     */
    static final String LATENCY_FLAGS_PROPERTY = "sympathy.jvm_args";

    /** The latency flags ({@link #LATENCY_FLAGS_PROPERTY}); empty without the property. */
    static List<String> latencyFlags() {
        final String flags = System.getProperty(LATENCY_FLAGS_PROPERTY, "").strip();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }

    /**
     * Runs JMH once (progress to stderr) and converts its results; with {@code latencyFlags} the
     * forks get {@link #latencyFlags()}, and they get the preset's {@code presetFlags}
     * ({@link JmhIterations#forkJvmArgs}); the results say so in {@code jvm_args}.
     */
    private static List<Map<String, Object>> runJmh(JmhRun run, Converter converter, boolean latencyFlags,
            List<String> presetFlags) throws IOException, RunnerException {
        final Path dir = Files.createTempDirectory("sympathy-jmh");
        final Path result = dir.resolve("jmh.json");
        final Path extras = dir.resolve("extras.jsonl");
        final List<String> jvmArgs = new ArrayList<>(run.jvmArgs());
        final List<String> latency = new ArrayList<>(latencyFlags ? latencyFlags() : List.of());
        latency.addAll(presetFlags);
        jvmArgs.addAll(latency);
        // JMH 1.37 itself calls sun.misc.Unsafe (org.openjdk.jmh.util.Utils): keep JDK 24+'s
        // run-time warning out of every fork's output.
        if (!jvmArgs.contains(JmhRun.UNSAFE_ALLOW)) {
            jvmArgs.add(JmhRun.UNSAFE_ALLOW);
        }
        jvmArgs.add("-D" + Extras.PROPERTY + "=" + extras);
        // The native pinning library (support/Pinning): the forks look where this JVM looks.
        jvmArgs.add("-Djava.library.path=" + System.getProperty("java.library.path"));
        jvmArgs.add("--enable-native-access=ALL-UNNAMED");
        final String pinningClass = System.getProperty("sympathy.pinning.class");
        if (pinningClass != null) {
            jvmArgs.add("-Dsympathy.pinning.class=" + pinningClass);
        }
        final ChainedOptionsBuilder options = run.options()
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .resultFormat(ResultFormatType.JSON)
                .result(result.toString());
        final PrintStream stdout = System.out;
        System.setOut(System.err);
        try {
            new Runner(options.build()).run();
        } catch (RunnerException e) {
            // JMH refuses to start beside another JMH run (its lock file): two benchmarks
            // sharing the cores would measure each other, so this run is the machine's being
            // busy, not a failure of the benchmark.
            final String message = String.valueOf(e.getMessage());
            if (message.contains(JMH_LOCK_TAKEN)) {
                throw new MachineBusyException("another JMH run holds its lock (" + message.strip() + ")");
            }
            throw e;
        } finally {
            System.setOut(stdout);
        }
        final Path busy = Extras.busyFile(extras);
        if (Files.exists(busy)) {
            final String reason = Files.readString(busy, StandardCharsets.UTF_8).strip().replace('\n', ';');
            Files.delete(busy);
            throw new MachineBusyException(reason);
        }
        final String jmhJson = Files.readString(result, StandardCharsets.UTF_8);
        final List<String> extraLines = Files.exists(extras) ? Files.readAllLines(extras) : List.of();
        final List<Map<String, Object>> records = converter.convert(jmhJson, extraLines);
        if (records.isEmpty()) {
            throw new IllegalStateException("JMH ran but produced no result (no score and no extras line)");
        }
        warnOfCompilation(run, records);
        if (!latency.isEmpty()) {
            for (Map<String, Object> rec : records) {
                @SuppressWarnings("unchecked")
                final Map<String, Object> params = (Map<String, Object>) rec.get("params");
                params.put("jvm_args", String.join(" ", latency));
            }
        }
        Files.deleteIfExists(result);
        Files.deleteIfExists(extras);
        Files.deleteIfExists(dir);
        return records;
    }

    /** Compile time in one measured iteration from which the runner warns, in ms. */
    static final double JIT_WARN_MS = 5;

    /**
     * Says on stderr which results had a measured iteration during which the JIT compiled for
     * {@value #JIT_WARN_MS} ms or more ({@code stats.jit_ms}): their warm-up did not take all the
     * compilation, and their first figures may include interpreted or C1 code.
     */
    private static void warnOfCompilation(JmhRun run, List<Map<String, Object>> records) {
        final java.util.Set<String> warned = new java.util.HashSet<>();
        for (Map<String, Object> rec : records) {
            if (rec.get("stats") instanceof Map<?, ?> stats && stats.get("jit_ms") instanceof List<?> jit) {
                final double most = jit.stream().mapToDouble(ms -> ((Number) ms).doubleValue()).max().orElse(0);
                if (most >= JIT_WARN_MS && warned.add(String.valueOf(rec.get("variant")))) {
                    System.err.println("warning: " + run.benchmark().getSimpleName() + " " + rec.get("variant")
                            + ": the JIT compiled for up to " + most + " ms during a measured iteration (stats.jit_ms "
                            + jit + "); more warm-up would keep it out");
                }
            }
        }
    }

    /**
     * {@code lock-xadd threads=2 preset=quick: ns_per_op 9.30 ns (9.10 .. 9.60, 5 runs, first 9.60) ok};
     * {@code first} only where the record has it.
     */
    static String human(Map<String, Object> rec) {
        @SuppressWarnings("unchecked")
        final Map<String, Object> stats = (Map<String, Object>) rec.get("stats");
        @SuppressWarnings("unchecked")
        final Map<String, Object> params = (Map<String, Object>) rec.get("params");
        final StringBuilder p = new StringBuilder();
        params.forEach((k, v) -> p.append(' ').append(k).append('=').append(v));
        final String first = stats.containsKey("first") ? ", first " + number(stats.get("first")) : "";
        return String.format(Locale.ROOT, "%s %s%s: %s %s %s (%s .. %s, %s runs%s) %s",
                rec.get("experiment"), rec.get("variant"), p, rec.get("metric"), number(rec.get("value")),
                rec.get("unit"), number(stats.get("min")), number(stats.get("max")), stats.get("runs"), first,
                rec.get("check"));
    }

    private static String number(Object value) {
        final double v = ((Number) value).doubleValue();
        if (Math.abs(v) >= 1e9) {
            return String.format(Locale.ROOT, "%.3fG", v / 1e9);
        }
        if (Math.abs(v) >= 1e6) {
            return String.format(Locale.ROOT, "%.3fM", v / 1e6);
        }
        if (Math.abs(v) >= 1e3) {
            return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
