package dev.sympathy.jmh.serialization;

import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.jmh.support.Quiet;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * serialization: the seed's {@code TestSerialisationPerf} (000). One invocation is one seed
 * {@code performTest}: {@code count} orders written, then read back, timed separately
 * ({@code write_ns}, {@code read_ns} per order, recorded through {@link Extras} with
 * {@code encoded_bytes}); JMH's single-shot score (the whole run, checks included) is not reported.
 *
 * <p>Unlike the seed, which wrote one item 1M times and compared only the last object read, the
 * orders go in batches of {@value OrderCodec#BATCH}: write a batch (timed), read it back (timed),
 * then compare every decoded order with its original, all fields (untimed), and throw on the
 * first mismatch, so every round trip is checked and no decode is dead code (each result is
 * stored). The batch holds the seed's item and 255 seeded random orders, the same orders
 * Rust's run encodes ({@code sympathy_lab::serialization::inputs} draws them from the same
 * {@code SplittableRandom(9)}), and Rust's run also checks after its timers: the work inside
 * each timer is the codec's alone in both. Java's decodes allocate their orders (an
 * {@link Order} and two arrays, about 232 bytes) where Rust's fill 256 reused ones: the
 * idiomatic decode of each language, said on the page.
 *
 * <pre>
 * java --sun-misc-unsafe-memory-access=allow -jar benchmarks.jar Serialization -p variant=unsafe -p count=1000000
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class Serialization {
    @Param({"java-serialization", "byte-buffer", "unsafe", "ffm", "ring-claim", "sbe"})
    public String variant;

    /** Round trips per run; the seed: 1M. */
    @Param({"1000000"})
    public int count;

    private OrderCodec codec;
    private final Order[] orders = new Order[OrderCodec.BATCH];
    private final Order[] decoded = new Order[OrderCodec.BATCH];
    private long writeNanos;
    private long readNanos;
    private boolean verified;
    private Order last;

    @Setup(Level.Trial)
    public void open() {
        if (count < 1) {
            throw new IllegalArgumentException("serialization: count must be >= 1, got " + count);
        }
        codec = OrderCodecs.create(variant);
        final SplittableRandom random = new SplittableRandom(INPUTS_SEED);
        orders[0] = Order.seedItem();
        for (int i = 1; i < orders.length; i++) {
            orders[i] = Order.random(random);
        }
    }

    /**
     * Before each measured shot: the young generation emptied and the JIT quiet
     * ({@link Quiet#settle}), so that no collection pauses inside the shot's timed reads and the
     * shot runs the codecs' C2 code. Warm-up shots run without it: a collection inside one costs
     * nothing measured.
     */
    @Setup(Level.Iteration)
    public void settle(IterationParams iteration) {
        Pinning.pinToAvailable(0); // the benchmark thread, on the core Rust's run takes
        if (iteration.getType() == IterationType.MEASUREMENT) {
            Quiet.settle();
        }
    }

    /** One seed run; returns an order read back (consumed by JMH). */
    @Benchmark
    public Order roundTrips() {
        verified = false;
        final OrderCodec codec = this.codec;
        long write = 0;
        long read = 0;
        for (int done = 0; done < count; ) {
            final int n = Math.min(OrderCodec.BATCH, count - done);
            final long start = System.nanoTime();
            codec.writeBatch(orders, n);
            final long written = System.nanoTime();
            codec.readBatch(decoded, n);
            final long readBack = System.nanoTime();
            write += written - start;
            read += readBack - written;
            verify(n, done);
            done += n;
        }
        writeNanos = write;
        readNanos = read;
        verified = true;
        return last;
    }

    /** Every decoded order equals its original and is a new object; clears the slots after. */
    private void verify(int n, int done) {
        for (int i = 0; i < n; i++) {
            final Order back = decoded[i];
            if (back == orders[i] || !orders[i].equals(back)) {
                throw new IllegalStateException("serialization " + variant + ": round trip " + (done + i)
                        + " gave " + back + ", expected a copy of " + orders[i]);
            }
            last = back;
            decoded[i] = null;
        }
    }

    /** Round trips the warm-up shots add up to at the least: C2 has compiled every codec by then. */
    public static final int WARM_ROUND_TRIPS = 1_000_000;
    /** The most warm-up shots {@link #warmupShots} asks for. */
    static final int MAX_WARMUP_SHOTS = 20;

    /**
     * Warm-up shots (invocations) before the measured ones, for {@code count} round trips a shot
     * and a preset that asks for {@code presetWarmups}: none when the preset asks for none (smoke
     * checks the plumbing), else enough shots for {@link #WARM_ROUND_TRIPS} (at most
     * {@link #MAX_WARMUP_SHOTS}). One shot of the quick preset's 100k is not warm: a shot of
     * {@code ring-claim} takes 249, 139, 24, 21, 20, 18, 18, 9, 6, 7 ms from the first (JMH
     * {@code -prof gc}, 0 warm-up iterations), the codecs still in C1 code.
     *
     * <pre>{@code
     * Serialization.warmupShots(100_000, 1)    // 10
     * Serialization.warmupShots(1_000_000, 2)  // 2
     * Serialization.warmupShots(1_000, 0)      // 0
     * }</pre>
     */
    public static int warmupShots(int count, int presetWarmups) {
        return warmupShots(count, presetWarmups, WARM_ROUND_TRIPS);
    }

    /**
     * Round trips after which {@code java-serialization} is warm: its round trip is thousands of
     * bytecodes (a stream header, a class descriptor, reflection), so C2 has compiled it long
     * before a million; a quick run's shots of 100k took 6245, 2724, 1124, then 882..1252 ms
     * from the first, so three shots reach the steady time, and the seven more that
     * {@link #WARM_ROUND_TRIPS} would ask for cost seven seconds a run and change nothing.
     */
    public static final int WARM_JAVA_SERIALIZATION_ROUND_TRIPS = 300_000;

    /**
     * {@link #warmupShots(int, int)} for {@code variant}: the {@code java-serialization} variant
     * warms up for {@link #WARM_JAVA_SERIALIZATION_ROUND_TRIPS}, every other for
     * {@link #WARM_ROUND_TRIPS}.
     *
     * <pre>{@code
     * Serialization.warmupShots(100_000, 1, "java-serialization")  // 3
     * Serialization.warmupShots(100_000, 1, "sbe")                 // 10
     * }</pre>
     */
    public static int warmupShots(int count, int presetWarmups, String variant) {
        final int warm = variant.equals("java-serialization") ? WARM_JAVA_SERIALIZATION_ROUND_TRIPS : WARM_ROUND_TRIPS;
        return warmupShots(count, presetWarmups, warm);
    }

    private static int warmupShots(int count, int presetWarmups, int warmRoundTrips) {
        if (presetWarmups == 0) {
            return 0;
        }
        final long shots = (warmRoundTrips + (long) count - 1) / count;
        return (int) Math.max(presetWarmups, Math.min(shots, MAX_WARMUP_SHOTS));
    }

    /** Bytes a decode allocates at the most: an {@link Order} and its two arrays (232 with compressed oops). */
    static final int DECODE_BYTES = 256;

    /**
     * MiB of young generation (eden) that hold the orders one shot of {@code count} round trips
     * decodes, twice over, at least 64: every decode allocates an {@link Order} and two arrays
     * (JMH {@code -prof gc}: 232 bytes per round trip), so a collection would otherwise start in
     * the middle of a shot's reads and its pause would count as reading (read_ns of 23 to 255
     * ns for the same code in back-to-back quick runs). With the young generation this size and
     * a collection forced before each measured shot ({@link #settle}), read_ns is the decode with
     * its allocation and without a collection; {@code -prof gc}'s {@code gc.time} shows the
     * collection's cost.
     *
     * <pre>{@code
     * Serialization.youngGenMib(100_000)     // 64
     * Serialization.youngGenMib(1_000_000)   // 488
     * }</pre>
     */
    public static long youngGenMib(int count) {
        return Math.max(64, 2L * count * DECODE_BYTES >> 20);
    }

    /** The seed of the orders' generator; Rust's {@code serialization::inputs} draws the same orders from it. */
    static final long INPUTS_SEED = 9;

    /** What each timer holds, as Rust's runs say it (the {@code timer} parity fact). */
    static final String TIMER = "encode | decode, check after";

    /** The byte format a variant writes (the {@code format} parity fact), in Rust's words. */
    static String format(String variant) {
        return switch (variant) {
            case "java-serialization" -> "java.io";
            case "sbe" -> "sbe";
            default -> "order-layout";
        };
    }

    /** The params of this benchmark's results, in the catalog's names: {@code {count=1000}}. */
    public static Map<String, Object> resultParams(int count) {
        return Map.of("count", count);
    }

    @TearDown(Level.Iteration)
    public void measure(IterationParams iteration) {
        if (iteration.getType() == IterationType.MEASUREMENT && verified) {
            final Map<String, Object> params = resultParams(count);
            Extras.record("serialization", variant, params, "write_ns", "ns", writeNanos / (double) count, "ok");
            Extras.record("serialization", variant, params, "read_ns", "ns", readNanos / (double) count, "ok");
            Extras.record("serialization", variant, params, "encoded_bytes", "bytes", codec.encodedBytes(), "n/a");
            Extras.fact("serialization", variant, "inputs", OrderCodec.BATCH);
            Extras.fact("serialization", variant, "working_set_bytes", (long) OrderCodec.BATCH * codec.encodedBytes());
            Extras.fact("serialization", variant, "timer", TIMER);
            Extras.fact("serialization", variant, "format", format(variant));
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        codec.close();
    }
}
