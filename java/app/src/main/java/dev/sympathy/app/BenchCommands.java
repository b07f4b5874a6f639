package dev.sympathy.app;

import dev.sympathy.results.Stats;
import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench} (throughput) and {@code latency} (echo round trip): each run uses fresh ring
 * files and a separate JVM for the other end, verifies every message, and the figures are the
 * median and spread over the runs (experiment {@code ipc} of docs/results.md).
 */
final class BenchCommands {
    private BenchCommands() {}

    /**
     * Throughput: a thread of this JVM pinned to the producer core produces {@code count}
     * messages; a child JVM pinned to the consumer core consumes and verifies them and times the
     * first message to the last. Metrics msgs_per_sec and bytes_per_sec per implementation.
     *
     * <p>{@code --impl ffm,agrona} measures several implementations in one command, alternating
     * them run by run (each round starts one further along the list) so that a drifting
     * core-to-core cost on a shared host hits each alike, and prints each one's per-round ratio
     * to the first: the comparison "in the same run" that a pair of separate commands cannot make.
     */
    static void bench(String[] argv) throws IOException, InterruptedException {
        Args args = new Args("bench", argv, 1,
                Set.of("size", "count", "runs", "impl", "producer", "consumer", "capacity", "dir", "cores", "writes",
                        "batch"),
                Set.of("json"));
        args.expectPositional(0);
        int size = (int) args.requiredLong("size", TestPattern.MIN_SIZE, 1 << 27);
        long count = args.requiredLong("count", 1, Long.MAX_VALUE);
        int runs = (int) args.longOption("runs", 1, 1000, 5);
        long capacity = args.longOption("capacity", 64, 1L << 30, 1 << 20);
        List<RingImpl[]> pairs = pairs(args);
        Cores cores = Cores.parse("bench", args.string("cores", "")).checked("bench");
        WriteMode writes = WriteMode.of(args);
        int batch = WriteMode.batchOf(args, writes);
        Path dir = benchDir(args);
        Output out = new Output(args.flag("json"));
        double[][] msgsPerSec = new double[pairs.size()][runs];
        for (int run = 0; run < runs; run++) {
            for (int k = 0; k < pairs.size(); k++) {
                int pair = (run + k) % pairs.size();
                RingImpl producerImpl = pairs.get(pair)[0];
                RingImpl consumerImpl = pairs.get(pair)[1];
                Path file = dir.resolve("sympathy-bench-" + ProcessHandle.current().pid() + "-" + run + "-" + pair + ".ring");
                msgsPerSec[pair][run] = oneBench(file, producerImpl, consumerImpl, size, count, capacity, cores, writes,
                        batch);
                out.line(String.format("run %d: %s -> %s, %d B x %d%s: %s msgs/s, %s B/s", run + 1,
                        producerImpl.label(), consumerImpl.label(), size, count,
                        writes == WriteMode.BATCH ? " (runs of " + batch + ")" : "",
                        Output.human(msgsPerSec[pair][run]), Output.human(msgsPerSec[pair][run] * size)));
            }
        }
        for (int pair = 0; pair < pairs.size(); pair++) {
            RingImpl producerImpl = pairs.get(pair)[0];
            RingImpl consumerImpl = pairs.get(pair)[1];
            String variant = producerImpl.label() + "-to-" + consumerImpl.label();
            Map<String, Object> params = params(producerImpl, consumerImpl, size, capacity, writes);
            if (writes == WriteMode.BATCH) {
                params.put("batch", batch);
            }
            params.put("count", count);
            params.put("cores", cores.label());
            params.put("pinning", "pinned");
            double[] bytesPerSec = Arrays.stream(msgsPerSec[pair]).map(m -> m * size).toArray();
            out.result("ring-impls", variant, params, "msgs_per_sec", "msgs/s", Stats.of(msgsPerSec[pair]));
            out.result("ring-impls", variant, params, "bytes_per_sec", "bytes/s", Stats.of(bytesPerSec));
        }
        for (int pair = 1; pair < pairs.size(); pair++) {
            double[] ratios = new double[runs];
            for (int run = 0; run < runs; run++) {
                ratios[run] = msgsPerSec[pair][run] / msgsPerSec[0][run];
            }
            Stats r = Stats.of(ratios);
            out.line(String.format("ratio %s / %s (same round): median %.2f (%.2f .. %.2f, %d rounds)",
                    pairs.get(pair)[0].label(), pairs.get(0)[0].label(), r.median(), r.min(), r.max(), r.runs()));
        }
    }

    /**
     * The producer/consumer pairs to measure: {@code --producer X --consumer Y} (one pair), or
     * each name of {@code --impl A,B,..} at both ends (default ffm).
     */
    private static List<RingImpl[]> pairs(Args args) {
        String both = args.string("impl", "ffm");
        if (args.flag("producer") || args.flag("consumer")) {
            if (both.contains(",")) {
                throw new UsageException("bench: --impl with a list cannot be combined with --producer/--consumer");
            }
            return List.<RingImpl[]>of(new RingImpl[] {
                Impls.byName("bench", args.string("producer", both)), Impls.byName("bench", args.string("consumer", both))
            });
        }
        List<RingImpl[]> pairs = new ArrayList<>();
        for (String name : both.split(",")) {
            RingImpl impl = Impls.byName("bench", name.trim());
            if (pairs.stream().anyMatch(p -> p[0].name().equals(impl.name()))) {
                throw new UsageException("bench: --impl names " + impl.name() + " twice");
            }
            pairs.add(new RingImpl[] {impl, impl});
        }
        return pairs;
    }

    /** One run on a fresh ring file: returns messages per second, first message to last. */
    static double oneBench(Path file, RingImpl producerImpl, RingImpl consumerImpl, int size, long count,
            long capacity, Cores cores, WriteMode writes, int batch) throws IOException, InterruptedException {
        try (RingFile ring = RingFile.create(file, capacity)) {
            SizeSpec sizes = SizeSpec.parse("bench", Integer.toString(size), 1);
            sizes.checkFits("bench", ring.maxMessageLength());
            Process consumer = ChildJvm.start(List.of("consume", file.toString(), "--count", Long.toString(count),
                    "--impl", consumerImpl.name(), "--report-elapsed", "--timeout-ms", "30000",
                    "--core", Integer.toString(cores.consumer())));
            ProduceLoop loop = new ProduceLoop();
            loop.count = count;
            loop.timeoutMs = 30_000;
            loop.writes = writes;
            loop.batch = batch;
            try {
                Cores.onPinnedThread("bench", "producer", cores.producer(), () -> {
                    // The consumer JVM warms up too (its --core): both ends are timed compiled.
                    Warmup.run(producerImpl, Integer.toString(size), Warmup.DEFAULT_MESSAGES, writes);
                    return loop.run(ring, producerImpl, sizes);
                });
            } catch (RuntimeException | Error e) {
                consumer.destroy();
                throw e;
            }
            String report = ChildJvm.finish(consumer, "consumer");
            long nanos = ChildJvm.value(report, "elapsed_ns", "consumer");
            long bytes = ChildJvm.value(report, "bytes", "consumer");
            if (bytes != count * size) {
                throw new IllegalStateException("consumer verified " + bytes + " bytes, expected " + count * size);
            }
            return count / (Math.max(nanos, 1) / 1e9);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Latency: this JVM writes message i to a ping ring and spins until the echo JVM returns it
     * on a pong ring; {@code --count} round trips are timed after {@link EchoLoop#warmup} untimed.
     */
    static void latency(String[] argv) throws IOException, InterruptedException {
        Args args = new Args("latency", argv, 1, Set.of("size", "count", "runs", "impl", "capacity", "dir", "cores"),
                Set.of("json"));
        args.expectPositional(0);
        int size = (int) args.requiredLong("size", TestPattern.MIN_SIZE, 1 << 27);
        long count = args.requiredLong("count", 10, 100_000_000);
        int runs = (int) args.longOption("runs", 1, 1000, 3);
        long capacity = args.longOption("capacity", 64, 1L << 30, 1 << 16);
        RingImpl impl = Impls.byName("latency", args.string("impl", "ffm"));
        Cores cores = Cores.parse("latency", args.string("cores", "")).checked("latency");
        Path dir = benchDir(args);
        Output out = new Output(args.flag("json"));
        long recorded = count;
        long warmup = EchoLoop.warmup(recorded, capacity, size);
        String[] names = {"rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"};
        double[][] samples = new double[names.length][runs];
        for (int run = 0; run < runs; run++) {
            long[] values = oneEcho(dir, impl, size, warmup, recorded, capacity, cores);
            for (int m = 0; m < names.length; m++) {
                samples[m][run] = values[m];
            }
            out.line(String.format("run %d: %s echo, %d B x %d: p50 %d ns, p99 %d ns, p99.9 %d ns, max %d ns",
                    run + 1, impl.label(), size, recorded, values[0], values[1], values[2], values[3]));
        }
        Map<String, Object> params = params(impl, impl, size, capacity, WriteMode.PER_MESSAGE);
        params.put("round_trips", recorded);
        params.put("cores", cores.label());
        params.put("pinning", "pinned");
        for (int m = 0; m < names.length; m++) {
            out.result("ring-impls", impl.label() + "-echo", params, names[m], "ns", Stats.of(samples[m]));
        }
    }

    /**
     * Starts the echo process of one latency run: it copies {@code count} messages from the
     * {@code ping} ring to the {@code pong} ring, pinned to {@code core}; its stdout is read by
     * {@link ChildJvm#finish}, its stderr inherited.
     */
    @FunctionalInterface
    interface EchoPeer {
        Process start(Path ping, Path pong, long count, int core) throws IOException;
    }

    /** The echo in a separate JVM of this sidecar ({@code echo}, hidden) on {@code impl}. */
    static EchoPeer jvmEcho(RingImpl impl) {
        return (ping, pong, count, core) -> ChildJvm.start(List.of("echo", ping.toString(), pong.toString(),
                "--count", Long.toString(count), "--impl", impl.name(), "--timeout-ms", "30000",
                "--core", Integer.toString(core)));
    }

    /**
     * One echo run on fresh rings in {@code dir} with an echo JVM on the same implementation:
     * see {@link #oneEcho(Path, RingImpl, EchoPeer, int, long, long, long, Cores)}.
     */
    static long[] oneEcho(Path dir, RingImpl impl, int size, long warmup, long timed, long capacity, Cores cores)
            throws IOException, InterruptedException {
        return oneEcho(dir, impl, jvmEcho(impl), size, warmup, timed, capacity, cores);
    }

    /**
     * One echo run on fresh rings in {@code dir}: {@code warmup} untimed then {@code timed} timed
     * round trips, this JVM pinging on {@code impl} from the producer core, {@code echo} started
     * on the consumer core; every echo is verified (the pattern of its sequence number). Returns
     * p50, p99, p99.9 and max in nanoseconds.
     */
    static long[] oneEcho(Path dir, RingImpl impl, EchoPeer echoPeer, int size, long warmup, long timed,
            long capacity, Cores cores) throws IOException, InterruptedException {
        long count = warmup + timed;
        String stem = "sympathy-latency-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Path pingFile = dir.resolve(stem + "-ping.ring");
        Path pongFile = dir.resolve(stem + "-pong.ring");
        try (RingFile ping = RingFile.create(pingFile, capacity); RingFile pong = RingFile.create(pongFile, capacity)) {
            SizeSpec.parse("latency", Integer.toString(size), 1).checkFits("latency", ping.maxMessageLength());
            Process echo = echoPeer.start(pingFile, pongFile, count, cores.consumer());
            long[] rtt = new long[Math.toIntExact(timed)];
            MessageCheck check = new MessageCheck(0);
            byte[] message = new byte[size];
            try {
                Cores.onPinnedThread("latency", "ping", cores.producer(), () -> {
                    EchoLoop.run(impl, ping, pong, check, echo, message, size, warmup, rtt);
                    return null;
                });
            } catch (RuntimeException | Error e) {
                echo.destroy();
                throw e;
            }
            ChildJvm.finish(echo, "echo");
            if (check.received() != count) {
                throw new IllegalStateException("received " + check.received() + " echoes, expected " + count);
            }
            Arrays.sort(rtt);
            return new long[] {Stats.quantile(rtt, 0.50), Stats.quantile(rtt, 0.99), Stats.quantile(rtt, 0.999),
                rtt[rtt.length - 1]};
        } finally {
            Files.deleteIfExists(pingFile);
            Files.deleteIfExists(pongFile);
        }
    }

    private static Map<String, Object> params(RingImpl producer, RingImpl consumer, int size, long capacity,
            WriteMode writes) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("producer", producer.label());
        params.put("consumer", consumer.label());
        params.put("size_bytes", size);
        params.put("capacity", capacity);
        params.put("writes", writes.label());
        return params;
    }

    /** Ring files go to /dev/shm when it exists (memory, not disk), else the temp dir, or --dir. */
    private static Path benchDir(Args args) {
        String explicit = args.string("dir", "");
        return explicit.isEmpty() ? scratchDir() : Path.of(explicit);
    }

    /** /dev/shm when it exists and is writable (memory, not disk), else the temp dir. */
    static Path scratchDir() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }
}
