package dev.sympathy.jmh.table;

import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.Warmups;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;
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
 * struct-table: the seed's trade table (000). One invocation is one seed {@code perfRun}: build
 * the table ({@code init_ms}), query buyCost/sellCost ({@code query_ms}); JMH's single-shot score
 * is their sum ({@code total_ms}). As the seed, a {@code System.gc()} precedes every run.
 *
 * <p>Variants: {@code boxed} (the seed's {@code Trade[]}), {@code unsafe-flyweight} (the seed's
 * Unsafe flyweight, the work of Rust's {@code flyweight}), {@code ffm-flyweight} (the same records
 * through FFM), {@code soa} (one array per field, as Rust's). Also recorded per run: {@code bytes_per_record}
 * (heap growth after a GC, from {@code MemoryMXBean}, plus the native allocation) and
 * {@code gc_pause_ms} (collection time of every {@code GarbageCollectorMXBean} during the run).
 * A run throws unless buyCost/sellCost equal their closed form.
 *
 * <pre>
 * java -Xmx8g -jar benchmarks.jar StructTable -p variant=boxed -p records=50000000
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class StructTable {
    @Param({"boxed", "unsafe-flyweight", "ffm-flyweight", "soa"})
    public String variant;

    /** Trades in the table; the seed: 50M. */
    @Param({"5000000"})
    public int records;

    /** Warm-up shots at the least, when a preset warms up at all. */
    public static final int MIN_WARMUP_SHOTS = 4;

    /**
     * Warm-up shots before the measured ones for a preset that asks for {@code presetWarmups}:
     * none when it asks for none, else at least {@value #MIN_WARMUP_SHOTS}. Each shot calls the
     * table's build and query once, so C2 compiles them whole (not only their loops) after a few
     * shots: with two warm-up shots at quick, the second measured shot of every variant ran
     * beside 17-77 ms of compilation ({@code stats.jit_ms}). A shot of 1M trades takes 10-40 ms.
     *
     * <pre>{@code
     * StructTable.warmupShots(2)  // 4
     * StructTable.warmupShots(0)  // 0
     * }</pre>
     */
    public static int warmupShots(int presetWarmups) {
        return Warmups.atLeast(presetWarmups, MIN_WARMUP_SHOTS);
    }

    private TradeTable table;
    private long heapBefore;
    private long gcMillisBefore;
    private long gcMillisAfter;
    private double initMs;
    private double queryMs;

    @Setup(Level.Iteration)
    public void prepare() {
        table = switch (variant) {
            case "boxed" -> new BoxedTradeTable(records);
            case "unsafe-flyweight" -> new UnsafeTradeTable(records);
            case "ffm-flyweight" -> new FfmTradeTable(records);
            case "soa" -> new SoaTradeTable(records);
            default -> throw new IllegalArgumentException("struct-table: unknown variant '" + variant
                    + "' (expected boxed, unsafe-flyweight, ffm-flyweight, soa)");
        };
        System.gc();
        heapBefore = heapUsed();
        gcMillisBefore = gcMillis();
    }

    /** One seed run. Returns buyCost (consumed by JMH). */
    @Benchmark
    public long perfRun() {
        final long start = System.nanoTime();
        table.init();
        final long built = System.nanoTime();
        final long[] costs = table.query();
        final long done = System.nanoTime();
        gcMillisAfter = gcMillis();
        initMs = (built - start) / 1e6;
        queryMs = (done - built) / 1e6;
        final long buy = TradeLayout.expectedBuyCost(records);
        final long sell = TradeLayout.expectedSellCost(records);
        if (costs[0] != buy || costs[1] != sell) {
            throw new IllegalStateException("struct-table " + variant + ": buyCost = " + costs[0] + " sellCost = "
                    + costs[1] + ", expected " + buy + " and " + sell);
        }
        return costs[0];
    }

    /**
     * The params of this benchmark's results (the JMH score and the extras), in the catalog's
     * names: {@code resultParams(1000)} is {@code {records=1000}}.
     */
    public static Map<String, Object> resultParams(int records) {
        return Map.of("records", records);
    }

    @TearDown(Level.Iteration)
    public void measure(IterationParams iteration) {
        if (iteration.getType() == IterationType.MEASUREMENT) {
            System.gc();
            final long heapGrowth = Math.max(0, heapUsed() - heapBefore);
            final Map<String, Object> params = resultParams(records);
            Extras.record("struct-table", variant, params, "init_ms", "ms", initMs, "ok");
            Extras.record("struct-table", variant, params, "query_ms", "ms", queryMs, "ok");
            Extras.record("struct-table", variant, params, "bytes_per_record", "bytes",
                    (heapGrowth + table.nativeBytes()) / (double) records, "n/a");
            Extras.record("struct-table", variant, params, "gc_pause_ms", "ms",
                    (double) (gcMillisAfter - gcMillisBefore), "n/a");
        }
        table.close();
        table = null;
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }
}
