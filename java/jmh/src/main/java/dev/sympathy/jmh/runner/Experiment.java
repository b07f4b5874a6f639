package dev.sympathy.jmh.runner;

import dev.sympathy.jmh.atomic.AtomicIncrement;
import dev.sympathy.jmh.backpressure.BackPressure;
import dev.sympathy.jmh.dispatch.Dispatch;
import dev.sympathy.jmh.dispatch.DispatchStepDown;
import dev.sympathy.jmh.pingpong.PingPong;
import dev.sympathy.jmh.queue.QueueThroughput;
import dev.sympathy.jmh.serialization.Serialization;
import dev.sympathy.jmh.table.StructTable;
import dev.sympathy.jmh.walk.MemoryWalk;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The experiments as JMH runs: which benchmark class, which sizes per {@link Scale}, which
 * thread counts, and which JVM flags the forks need.
 */
public enum Experiment {
    ATOMIC_INCREMENT("atomic-increment", AtomicIncrement.class) {
        @Override
        List<Run> runs(Scale scale) {
            final List<Integer> threads = new ArrayList<>(List.of(1, 2));
            final int cores = Runtime.getRuntime().availableProcessors();
            if (cores > 2) {
                threads.add(cores);
            }
            final List<Run> runs = new ArrayList<>();
            for (int t : threads) {
                runs.add(new Run(base(scale).threads(t), List.of()));
            }
            return runs;
        }
    },
    PING_PONG("ping-pong", PingPong.class) {
        @Override
        List<Run> runs(Scale scale) {
            return List.of(new Run(base(scale)
                    .param("iterations", scale.pick("10000", "1000000", "10000000", "100000000")), List.of()));
        }
    },
    MEMORY_WALK("memory-walk", MemoryWalk.class) {
        @Override
        List<Run> runs(Scale scale) {
            final int sizeMib = scale.pick(4, 256, 1024, 2048);
            return List.of(new Run(base(scale).param("sizeMib", Integer.toString(sizeMib)),
                    List.of("-Xmx" + (sizeMib + 1024) + "m")));
        }
    },
    STRUCT_TABLE("struct-table", StructTable.class) {
        @Override
        List<Run> runs(Scale scale) {
            // boxed needs ~60 bytes per record on the heap (object + reference): 50M -> ~3 GiB.
            return List.of(new Run(base(scale)
                    .param("records", scale.pick("10000", "1000000", "10000000", "50000000")),
                    List.of("-Xmx" + scale.pick("256m", "1g", "3g", "8g"), Main.UNSAFE_ALLOW)));
        }
    },
    QUEUE("queue", QueueThroughput.class) {
        @Override
        List<Run> runs(Scale scale) {
            return List.of(new Run(base(scale), List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED")));
        }
    },
    SERIALIZATION("serialization", Serialization.class) {
        @Override
        List<Run> runs(Scale scale) {
            // the unsafe variant is the seed's sun.misc.Unsafe, as struct-table's unsafe-flyweight
            return List.of(new Run(base(scale).param("count", scale.pick("1000", "100000", "1000000", "1000000")),
                    List.of(Main.UNSAFE_ALLOW)));
        }
    },
    DISPATCH("dispatch", Dispatch.class) {
        @Override
        List<Run> runs(Scale scale) {
            final String iterations = scale.pick("100000", "5000000", "50000000", "50000000");
            // step-down: the seed's program once per fork, never warmed (a warm call site has seen all four)
            final ChainedOptionsBuilder stepDown = base(scale, DispatchStepDown.class)
                    .warmupIterations(0)
                    .measurementIterations(1)
                    .param("iterations", iterations);
            return List.of(new Run(base(scale).param("iterations", iterations), List.of()),
                    new Run(stepDown, List.of()));
        }
    },
    BACK_PRESSURE("back-pressure", BackPressure.class) {
        @Override
        List<Run> runs(Scale scale) {
            // smoke checks the plumbing: one load above capacity (rejections), the accounting
            // checked but not the latency bound (a loaded CI machine's preemptions would fail
            // it: the latencies say "check":"n/a"); the bound is enforced from --quick on.
            final String[] loads = scale.pick(new String[] {"1.5"}, LOADS, LOADS, LOADS);
            // Eight warmup runs (a few seconds): until C2 has compiled the generator's and the
            // worker's loops, its compiler threads take turns with the two pinned spinning
            // threads on the two cores, 4 ms at a time, and the bounded queue misses its bound.
            return List.of(new Run(base(scale)
                    .warmupIterations(scale.pick(0, 8, 8, 8))
                    .param("count", scale.pick("5000", "20000", "100000", "500000"))
                    .param("enforceBound", scale.pick("false", "true", "true", "true"))
                    .param("load", loads), List.of()));
        }
    };

    /** back-pressure's offered loads, fractions of capacity. */
    private static final String[] LOADS = {"0.5", "0.8", "0.95", "1.2", "1.5"};

    /** The schema's experiment name. */
    final String id;
    private final Class<?> benchmark;

    Experiment(String id, Class<?> benchmark) {
        this.id = id;
        this.benchmark = benchmark;
    }

    /** One JMH run per options set (e.g. per thread count). */
    abstract List<Run> runs(Scale scale);

    /** One JMH run: its options and the JVM flags its forks need (appended by the runner). */
    record Run(ChainedOptionsBuilder options, List<String> jvmArgs) {
    }

    /** Options common to every experiment at this scale. */
    ChainedOptionsBuilder base(Scale scale) {
        return base(scale, benchmark);
    }

    /** Options common to every experiment at this scale, for the benchmarks of {@code benchmarkClass}. */
    static ChainedOptionsBuilder base(Scale scale, Class<?> benchmarkClass) {
        final TimeValue time = TimeValue.milliseconds(scale.iterationMillis);
        return new OptionsBuilder()
                .include("^" + benchmarkClass.getName().replace(".", "\\.") + "\\.")
                .warmupIterations(scale.warmupIterations)
                .measurementIterations(scale.measurementIterations)
                .warmupTime(time)
                .measurementTime(time)
                .forks(scale.forks)
                .shouldFailOnError(true);
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

    /** Experiment names, for messages. */
    static String ids() {
        return String.join(", ", java.util.Arrays.stream(values()).map(e -> e.id).toList());
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
