package dev.sympathy.app;

import dev.sympathy.jni.NativeRing;
import dev.sympathy.results.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code jni-cost}: the per-message cost of writing through JNI one message per native call
 * ({@code jni-single-write}) against {@code --batch} messages per call ({@code jni-batch-write})
 * and against a zero-copy claim filled in place and committed ({@code jni-claim-commit}: two
 * native calls per message, no copy from the scratch buffer).
 * One process fills a ring file with timed writes, drains it untimed through the native
 * consumer, and repeats until {@code --count} messages went through; the count read back is
 * checked. Reported as ns_per_op (median, min..max over {@code --runs}).
 */
final class JniCost {
    private JniCost() {}

    static void run(String[] argv) throws IOException {
        Args args = new Args("jni-cost", argv, 1, Set.of("size", "count", "batch", "runs"), Set.of("json"));
        args.expectPositional(0);
        int size = (int) args.longOption("size", 4, 1024, 8);
        long count = args.longOption("count", 1000, 1_000_000_000, 5_000_000);
        int batch = (int) args.longOption("batch", 2, 4096, 64);
        int runs = (int) args.longOption("runs", 1, 1000, 5);
        Output out = new Output(args.flag("json"));
        double[] single = new double[runs];
        double[] batched = new double[runs];
        double[] claimed = new double[runs];
        Path file = Files.createTempFile("sympathy-jni-cost", ".ring");
        Files.delete(file);
        try (NativeRing ring = NativeRing.create(file, 1 << 20);
                NativeRing.Producer producer = ring.producer(batch * size);
                NativeRing.Consumer consumer = ring.consumer(1 << 22)) {
            for (int run = 0; run < runs; run++) {
                single[run] = measure(producer, consumer, count, size, 1);
                batched[run] = measure(producer, consumer, count, size, batch);
                claimed[run] = measure(producer, consumer, count, size, CLAIM);
                out.line(String.format("run %d: single %.1f ns/msg, batch of %d %.1f ns/msg, claim %.1f ns/msg",
                        run + 1, single[run], batch, batched[run], claimed[run]));
            }
        } finally {
            Files.deleteIfExists(file);
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("size", size);
        params.put("count", count);
        out.result("ring-jni", "jni-single-write", params, "ns_per_op", "ns", Stats.of(single));
        Map<String, Object> batchParams = new LinkedHashMap<>(params);
        batchParams.put("batch", batch);
        out.result("ring-jni", "jni-batch-write", batchParams, "ns_per_op", "ns", Stats.of(batched));
        out.result("ring-jni", "jni-claim-commit", params, "ns_per_op", "ns", Stats.of(claimed));
    }

    /** {@code perCall} value of the claim variant: tryClaim, fill in place, commit (two native calls). */
    private static final int CLAIM = 0;

    /** One message through a claim filled in place (the first 8 bytes: its index); 0 when full. */
    private static int claim(NativeRing.Producer producer, int size, long index) {
        long at = producer.tryClaim(1, size);
        if (at < 0) {
            return 0;
        }
        producer.recordArea().set(LONG_LE, at, index);
        producer.commit(at);
        return 1;
    }

    private static final java.lang.foreign.ValueLayout.OfLong LONG_LE =
            java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * Nanoseconds per message of the timed writes ({@code perCall} messages per native call, or
     * {@link #CLAIM}).
     */
    private static double measure(NativeRing.Producer producer, NativeRing.Consumer consumer, long count, int size,
            int perCall) {
        long written = 0;
        long read = 0;
        long timed = 0;
        while (written < count) {
            long start = System.nanoTime();
            while (written < count) {
                int n;
                if (perCall == CLAIM) {
                    n = claim(producer, size, written);
                } else if (perCall == 1) {
                    n = producer.write(1, 0, size) ? 1 : 0;
                } else {
                    n = producer.writeBatch(1, (int) Math.min(perCall, count - written), size);
                }
                if (n == 0) {
                    break; // full: drain below, untimed
                }
                written += n;
            }
            timed += System.nanoTime() - start;
            // Drain all that was written (a wrap's padding reads as one empty poll, so count, not empties).
            int empty = 0;
            while (read < written && empty < 1_000_000) {
                int got = consumer.read(1 << 16);
                read += got;
                empty = got == 0 ? empty + 1 : 0;
            }
        }
        if (read != count) {
            throw new IllegalStateException("jni-cost: read back " + read + " of " + count + " messages");
        }
        return (double) timed / count;
    }
}
