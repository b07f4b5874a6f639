package dev.sympathy.app;

import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
     * Throughput: this JVM produces {@code count} messages; a child JVM consumes and verifies
     * them and times first-to-last message. Metrics msgs_per_sec and bytes_per_sec.
     */
    static void bench(String[] argv) throws IOException, InterruptedException {
        Args args = new Args("bench", argv, 1,
                Set.of("size", "count", "runs", "impl", "producer", "consumer", "capacity", "dir"), Set.of("json"));
        args.expectPositional(0);
        int size = (int) args.requiredLong("size", TestPattern.MIN_SIZE, 1 << 27);
        long count = args.requiredLong("count", 1, Long.MAX_VALUE);
        int runs = (int) args.longOption("runs", 1, 1000, 5);
        long capacity = args.longOption("capacity", 64, 1L << 30, 1 << 20);
        String both = args.string("impl", "ffm");
        RingImpl producerImpl = Impls.byName("bench", args.string("producer", both));
        RingImpl consumerImpl = Impls.byName("bench", args.string("consumer", both));
        Path dir = benchDir(args);
        Output out = new Output(args.flag("json"));
        String variant = producerImpl.label() + "-to-" + consumerImpl.label();
        double[] msgsPerSec = new double[runs];
        double[] bytesPerSec = new double[runs];
        for (int run = 0; run < runs; run++) {
            Path file = dir.resolve("sympathy-bench-" + ProcessHandle.current().pid() + "-" + run + ".ring");
            try (RingFile ring = RingFile.create(file, capacity)) {
                SizeSpec.parse("bench", Integer.toString(size), 1).checkFits("bench", ring.maxMessageLength());
                Process consumer = ChildJvm.start(List.of("consume", file.toString(), "--count", Long.toString(count),
                        "--impl", consumerImpl.name(), "--report-elapsed", "--timeout-ms", "30000"));
                ProduceLoop loop = new ProduceLoop();
                loop.count = count;
                loop.timeoutMs = 30_000;
                try {
                    loop.run(ring, producerImpl, SizeSpec.parse("bench", Integer.toString(size), 1));
                } catch (RuntimeException e) {
                    consumer.destroy();
                    throw e;
                }
                String report = ChildJvm.finish(consumer, "consumer");
                long nanos = ChildJvm.value(report, "elapsed_ns", "consumer");
                long bytes = ChildJvm.value(report, "bytes", "consumer");
                if (bytes != count * size) {
                    throw new IllegalStateException("consumer verified " + bytes + " bytes, expected " + count * size);
                }
                double seconds = Math.max(nanos, 1) / 1e9;
                msgsPerSec[run] = count / seconds;
                bytesPerSec[run] = bytes / seconds;
                out.line(String.format("run %d: %s -> %s, %d B x %d: %s msgs/s, %s B/s", run + 1,
                        producerImpl.label(), consumerImpl.label(), size, count,
                        Output.human(msgsPerSec[run]), Output.human(bytesPerSec[run])));
            } finally {
                Files.deleteIfExists(file);
            }
        }
        Map<String, Object> params = params(producerImpl, consumerImpl, size, count, capacity);
        out.result("ipc", variant, params, "msgs_per_sec", "msgs/s", Stats.of(msgsPerSec));
        out.result("ipc", variant, params, "bytes_per_sec", "bytes/s", Stats.of(bytesPerSec));
    }

    /**
     * Latency: this JVM writes message i to a ping ring and spins until the echo JVM returns it
     * on a pong ring; the first tenth of the messages warm up and are not recorded.
     */
    static void latency(String[] argv) throws IOException, InterruptedException {
        Args args = new Args("latency", argv, 1, Set.of("size", "count", "runs", "impl", "capacity", "dir"),
                Set.of("json"));
        args.expectPositional(0);
        int size = (int) args.requiredLong("size", TestPattern.MIN_SIZE, 1 << 27);
        long count = args.requiredLong("count", 10, 100_000_000);
        int runs = (int) args.longOption("runs", 1, 1000, 3);
        long capacity = args.longOption("capacity", 64, 1L << 30, 1 << 16);
        RingImpl impl = Impls.byName("latency", args.string("impl", "ffm"));
        Path dir = benchDir(args);
        Output out = new Output(args.flag("json"));
        long warmup = count / 10;
        int recorded = (int) (count - warmup);
        String[] names = {"rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"};
        double[][] samples = new double[names.length][runs];
        byte[] message = new byte[size];
        for (int run = 0; run < runs; run++) {
            String stem = "sympathy-latency-" + ProcessHandle.current().pid() + "-" + run;
            Path pingFile = dir.resolve(stem + "-ping.ring");
            Path pongFile = dir.resolve(stem + "-pong.ring");
            try (RingFile ping = RingFile.create(pingFile, capacity); RingFile pong = RingFile.create(pongFile, capacity)) {
                SizeSpec.parse("latency", Integer.toString(size), 1).checkFits("latency", ping.maxMessageLength());
                Process echo = ChildJvm.start(List.of("echo", pingFile.toString(), pongFile.toString(),
                        "--count", Long.toString(count), "--impl", impl.name(), "--timeout-ms", "30000"));
                long[] rtt = new long[recorded];
                MessageCheck check = new MessageCheck(0);
                try (RingImpl.ProducerEnd producer = impl.producer(ping);
                        RingImpl.ConsumerEnd consumer = impl.consumer(pong, check)) {
                    Heartbeat beat = new Heartbeat(() -> {
                        producer.heartbeat();
                        consumer.heartbeat();
                    });
                    for (long i = 0; i < count; i++) {
                        TestPattern.fill(message, i, size);
                        long start = System.nanoTime();
                        long spins = 0;
                        while (!producer.offer(1, message, size)) {
                            Thread.onSpinWait();
                            beat.tick();
                        }
                        while (consumer.poll(1) == 0) {
                            beat.tick();
                            if ((++spins & 0xFFFFF) == 0 && !echo.isAlive()) {
                                throw new IllegalStateException("the echo process exited after " + i + " messages");
                            }
                        }
                        long elapsed = System.nanoTime() - start;
                        if (i >= warmup) {
                            rtt[(int) (i - warmup)] = elapsed;
                        }
                        beat.tick();
                    }
                } catch (RuntimeException e) {
                    echo.destroy();
                    throw e;
                }
                ChildJvm.finish(echo, "echo");
                if (check.received() != count) {
                    throw new IllegalStateException("received " + check.received() + " echoes, expected " + count);
                }
                Arrays.sort(rtt);
                long[] values = {Stats.quantile(rtt, 0.50), Stats.quantile(rtt, 0.99), Stats.quantile(rtt, 0.999),
                        rtt[rtt.length - 1]};
                for (int m = 0; m < names.length; m++) {
                    samples[m][run] = values[m];
                }
                out.line(String.format("run %d: %s echo, %d B x %d: p50 %d ns, p99 %d ns, p99.9 %d ns, max %d ns",
                        run + 1, impl.label(), size, recorded, values[0], values[1], values[2], values[3]));
            } finally {
                Files.deleteIfExists(pingFile);
                Files.deleteIfExists(pongFile);
            }
        }
        Map<String, Object> params = params(impl, impl, size, recorded, capacity);
        for (int m = 0; m < names.length; m++) {
            out.result("ipc", impl.label() + "-echo", params, names[m], "ns", Stats.of(samples[m]));
        }
    }

    private static Map<String, Object> params(RingImpl producer, RingImpl consumer, int size, long count, long capacity) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("producer", producer.label());
        params.put("consumer", consumer.label());
        params.put("size_bytes", size);
        params.put("count", count);
        params.put("capacity_bytes", capacity);
        return params;
    }

    /** Ring files go to /dev/shm when it exists (memory, not disk), else the temp dir, or --dir. */
    private static Path benchDir(Args args) {
        String explicit = args.string("dir", "");
        if (!explicit.isEmpty()) {
            return Path.of(explicit);
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }
}
