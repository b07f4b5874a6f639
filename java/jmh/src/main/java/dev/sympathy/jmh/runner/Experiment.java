package dev.sympathy.jmh.runner;

import dev.sympathy.jmh.atomic.AtomicIncrement;
import dev.sympathy.jmh.backpressure.BackPressure;
import dev.sympathy.jmh.dispatch.Dispatch;
import dev.sympathy.jmh.dispatch.DispatchStepDown;
import dev.sympathy.jmh.map.OffheapMap;
import dev.sympathy.jmh.pingpong.PingPong;
import dev.sympathy.jmh.queue.QueueThroughput;
import dev.sympathy.jmh.serialization.Serialization;
import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.jmh.support.QuietJitProfiler;
import dev.sympathy.jmh.table.StructTable;
import dev.sympathy.jmh.walk.MemoryWalk;
import dev.sympathy.catalog.CatalogException;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Language;
import dev.sympathy.catalog.ParamSpec;
import dev.sympathy.catalog.Preset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.openjdk.jmh.profile.CompilerProfiler;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The experiments as JMH runs: what is Java's own (the benchmark class, the JVM flags its forks
 * need, JMH's iterations) beside what the catalog says ({@code experiments/<id>.toml}: the
 * variants and every param's values at the preset). Each catalog param a benchmark declares as a
 * JMH {@code @Param} (its lower camel case: {@code size_bytes} is {@code sizeBytes}) is set to
 * the catalog's values, and so is {@code variant} (Java's names).
 *
 * <pre>{@code
 * List<Experiment.Run> runs = Experiment.MEMORY_WALK.runsAt(Preset.QUICK, catalog.experiment("memory-walk"));
 * }</pre>
 */
public enum Experiment {
    ATOMIC_INCREMENT("atomic-increment", AtomicIncrement.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // JMH's thread count is no @Param: one run per catalog value, each thread on a core
            // of its own, so (as Rust's run) counts above the usable cores are left out
            final List<Run> runs = new ArrayList<>();
            for (Object value : values(spec, "threads", preset)) {
                final int threads = Math.toIntExact((Long) value);
                if (threads <= Pinning.processCores()) {
                    runs.add(new Run(AtomicIncrement.class,
                            base(preset, spec, AtomicIncrement.class).threads(threads), List.of()));
                }
            }
            return runs;
        }
    },
    PING_PONG("ping-pong", PingPong.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // warm-up shots until the loops' C2 code is the one measured (PingPong.warmupShots)
            final int warmups = PingPong.warmupShots(JmhIterations.at(preset).warmupIterations());
            return List.of(new Run(PingPong.class, base(preset, spec, PingPong.class).warmupIterations(warmups), List.of()));
        }
    },
    MEMORY_WALK("memory-walk", MemoryWalk.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // the array lives on the heap in the on-heap runs: room for the largest, plus 1 GiB
            final long heapMib = (max(spec, "size_bytes", preset) >> 20) + 1024;
            return List.of(new Run(MemoryWalk.class, base(preset, spec, MemoryWalk.class), List.of("-Xmx" + heapMib + "m")));
        }
    },
    STRUCT_TABLE("struct-table", StructTable.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // boxed needs ~60 bytes per record on the heap (object + reference); the rest is the
            // collector's room: 50M records get ~8 GiB
            final long heapMib = max(spec, "records", preset) * 160 / (1 << 20) + 256;
            // warm-up shots until C2 has compiled the build and the query whole (StructTable.warmupShots)
            final int warmups = StructTable.warmupShots(JmhIterations.at(preset).warmupIterations());
            return List.of(new Run(StructTable.class, base(preset, spec, StructTable.class).warmupIterations(warmups),
                    List.of("-Xmx" + heapMib + "m", Main.UNSAFE_ALLOW)));
        }
    },
    QUEUE("queue", QueueThroughput.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // warmup iterations until C2's code of the loops is the one measured (QueueThroughput.warmupIterations)
            final int warmups = QueueThroughput.warmupIterations(JmhIterations.at(preset).warmupIterations());
            return List.of(new Run(QueueThroughput.class, base(preset, spec, QueueThroughput.class).warmupIterations(warmups),
                    List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED")));
        }
    },
    SERIALIZATION("serialization", Serialization.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // the unsafe variant is the seed's sun.misc.Unsafe, as struct-table's unsafe-flyweight;
            // warm-up shots until C2 has compiled the codecs (Serialization.warmupShots), one run
            // per number of shots (java-serialization is warm sooner); a young generation that
            // holds a whole shot's decoded orders, emptied between shots, so that no collection
            // pauses inside a shot's timed reads (Serialization.youngGenMib): the benchmark
            // empties it and waits for a quiet JIT before each measured shot (Quiet.settle).
            // The sbe variant's Agrona buffer reaches jdk.internal.misc.Unsafe.
            final int count = Math.toIntExact(max(spec, "count", preset));
            final int presetWarmups = JmhIterations.at(preset).warmupIterations();
            final long young = Serialization.youngGenMib(count);
            final Map<Integer, List<String>> byWarmups = new LinkedHashMap<>();
            for (String variant : spec.variantsAt(Language.JAVA, preset)) {
                byWarmups.computeIfAbsent(Serialization.warmupShots(count, presetWarmups, variant), k -> new ArrayList<>())
                        .add(variant);
            }
            final List<Run> runs = new ArrayList<>();
            byWarmups.forEach((warmups, variants) -> runs.add(new Run(Serialization.class,
                    base(preset, spec, Serialization.class, variants).warmupIterations(warmups),
                    List.of(Main.UNSAFE_ALLOW, "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                            "-Xmn" + young + "m", "-Xms" + (2 * young) + "m", "-Xmx" + (2 * young) + "m"))));
            return runs;
        }
    },
    DISPATCH("dispatch", Dispatch.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // step-down: the seed's program once per fork, never warmed (a warm call site has seen all four)
            final ChainedOptionsBuilder stepDown = base(preset, spec, DispatchStepDown.class)
                    .warmupIterations(0)
                    .measurementIterations(1);
            final int warmups = Dispatch.warmupIterations(JmhIterations.at(preset).warmupIterations());
            return List.of(new Run(Dispatch.class, base(preset, spec, Dispatch.class).warmupIterations(warmups), List.of()),
                    new Run(DispatchStepDown.class, stepDown, List.of()));
        }
    },
    OFFHEAP_MAP("offheap-map", OffheapMap.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // One fork per variant: each gets the -Xmx it needs (the heap map ~500 bytes a user
            // plus 1 GiB, the off-heap ones 512 MiB, as the seed ran its OffheapMap in 500 MB),
            // and its GC log (-Xlog:gc), from which the run reads its System.gc()'s pause. Every
            // invocation builds the whole map and measures it (single-shot, no JMH warm-up: the
            // build warms the put path, and each measured loop runs an untimed warm-up first).
            final long users = max(spec, "users", preset);
            final int measured = preset == Preset.DEFAULT || preset == Preset.FULL ? 3 : 1;
            final String gcDir = System.getProperty("java.io.tmpdir") + "/sympathy-gc";
            new java.io.File(gcDir).mkdirs();
            final List<Run> runs = new ArrayList<>();
            for (String variant : spec.variantsAt(Language.JAVA, preset)) {
                final String log = gcDir + "/offheap-map-" + variant + "-%p.log";
                final List<String> jvm = new ArrayList<>(List.of("-Xmx" + OffheapMap.heapMib(variant, users) + "m",
                        "-Xlog:gc:file=" + log, "-D" + OffheapMap.GC_LOG_PROPERTY + "=" + log));
                jvm.addAll(OffheapMap.jvmFlags(variant));
                runs.add(new Run(OffheapMap.class, base(preset, spec, OffheapMap.class, List.of(variant))
                        .warmupIterations(0).measurementIterations(measured).forks(1), jvm));
            }
            return runs;
        }
    },
    BACK_PRESSURE("back-pressure", BackPressure.class) {
        @Override
        List<Run> runs(Preset preset, ExperimentSpec spec) {
            // smoke checks the plumbing: the accounting checked but not the latency bound (a
            // loaded CI machine's preemptions would fail it: the latencies say "check":"n/a");
            // the bound is enforced from --quick on.
            final boolean smoke = preset == Preset.SMOKE;
            // Eight warmup runs (a few seconds): until C2 has compiled the generator's and the
            // worker's loops, its compiler threads take turns with the two pinned spinning
            // threads on the two cores, 4 ms at a time, and the bounded queue misses its bound.
            // One measured run at quick, as Rust's back-pressure makes one there: a compare
            // round gives both languages the same samples (the rounds repeat it).
            final int measured = preset == Preset.QUICK ? 1 : JmhIterations.at(preset).measurementIterations();
            return List.of(new Run(BackPressure.class, base(preset, spec, BackPressure.class)
                    .warmupIterations(smoke ? 0 : 8)
                    .measurementIterations(measured)
                    .param("enforceBound", Boolean.toString(!smoke)), List.of()));
        }
    };

    /** The schema's experiment name. */
    final String id;
    private final Class<?> benchmark;

    Experiment(String id, Class<?> benchmark) {
        this.id = id;
        this.benchmark = benchmark;
    }

    /** One JMH run per options set (e.g. per thread count); by default one run of the benchmark class. */
    List<Run> runs(Preset preset, ExperimentSpec spec) {
        return List.of(new Run(benchmark, base(preset, spec, benchmark), List.of()));
    }

    /**
     * {@link #runs} less those left without a benchmark to run: a class whose methods are the
     * variants ({@code DispatchStepDown}) when the preset runs none of them ({@code skip_at}).
     * What {@link Main} runs and {@link Plan} plans.
     */
    final List<Run> runsAt(Preset preset, ExperimentSpec spec) {
        return runs(preset, spec).stream()
                .filter(run -> !JmhCase.expand(run.benchmark(), run.options().build()).isEmpty())
                .toList();
    }

    /**
     * Whether its forks run with the latency flags the sidecar's JVMs get ({@link Main#latencyFlags}):
     * every experiment but offheap-map, whose figures include the collector's own pauses and heap
     * (the default G1, which its users run).
     */
    boolean takesLatencyFlags() {
        return this != OFFHEAP_MAP;
    }

    /**
     * One JMH run: the benchmark class its options include, the options, and the JVM flags its
     * forks need (appended by the runner).
     */
    record Run(Class<?> benchmark, ChainedOptionsBuilder options, List<String> jvmArgs) {
    }

    /**
     * Options common to every experiment at this preset, for the benchmarks of
     * {@code benchmarkClass}: JMH's iterations at the preset, and the catalog's values at the
     * preset of {@code variant} and of each param the class declares.
     */
    static ChainedOptionsBuilder base(Preset preset, ExperimentSpec spec, Class<?> benchmarkClass) {
        return base(preset, spec, benchmarkClass, spec.variantsAt(Language.JAVA, preset));
    }

    /** {@link #base}, running only {@code variants} (a JMH param's values add up: set them once). */
    static ChainedOptionsBuilder base(Preset preset, ExperimentSpec spec, Class<?> benchmarkClass,
            List<String> variants) {
        final JmhIterations iterations = JmhIterations.at(preset);
        final Set<String> declared = JmhCase.declaredParams(benchmarkClass);
        // the variants are a `variant` param's values, or else the benchmark methods (kebab case)
        final String methods = declared.contains("variant") ? ""
                : "(" + variants.stream().map(Experiment::lowerCamel).collect(Collectors.joining("|")) + ")$";
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

    /**
     * {@code size_bytes} to {@code sizeBytes}: a catalog param's JMH {@code @Param} name; and
     * {@code cas-val} to {@code casVal}: a variant's benchmark method.
     */
    static String lowerCamel(String snake) {
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

    /** The catalog's values of {@code param} at {@code preset}; an error names a missing param. */
    static List<Object> values(ExperimentSpec spec, String param, Preset preset) {
        return spec.param(param).orElseThrow(() -> new CatalogException("experiments/" + spec.name()
                + ".toml has no param `" + param + "`, which the Java runner needs")).valuesAt(preset);
    }

    /** The largest integer value of {@code param} at {@code preset}. */
    static long max(ExperimentSpec spec, String param, Preset preset) {
        return values(spec, param, preset).stream().mapToLong(v -> {
            if (v instanceof Long n) {
                return n;
            }
            throw new CatalogException("experiments/" + spec.name() + ".toml: param `" + param + "` at "
                    + preset.label() + " holds " + v + ", not an integer");
        }).max().orElseThrow();
    }

    /** Looks an experiment up by its schema name. */
    static Experiment byId(String id) {
        for (Experiment e : values()) {
            if (e.id.equals(id)) {
                return e;
            }
        }
        return null;
    }

    /** Map form for tests and listings. */
    static Map<String, Class<?>> classes() {
        final Map<String, Class<?>> map = new java.util.LinkedHashMap<>();
        for (Experiment e : values()) {
            map.put(e.id, e.benchmark);
        }
        return map;
    }
}
