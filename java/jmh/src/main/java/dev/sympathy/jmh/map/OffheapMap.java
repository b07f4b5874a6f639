package dev.sympathy.jmh.map;

import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.map.user.User;
import dev.sympathy.map.user.Users;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * offheap-map: the seed's users (004, "Serialization based Off-Heap") in a heap map and off
 * the heap. One invocation is one run, as the Rust {@code sympathy_lab::offheap_map::run_once}:
 * build the map of {@code users} users (puts timed, the users made in untimed batches of 65536),
 * time {@code gets} lookups of random users, {@code latencySamples} lookups one by one,
 * {@code traversals} friend-of-friend walks, then time a {@code System.gc()} with the map loaded
 * (and read its pause from the GC log, {@code -Xlog:gc} to the file {@value #GC_LOG_PROPERTY}
 * names), take the heap used after it, and reopen the map file. Every lookup checks the user's
 * id; the friend counts' and the friends' friends' sums are checked against the generator's
 * (a mismatch throws). JMH's own score (the whole run) is not reported; the metrics are extras.
 *
 * <pre>
 * java -Xmx512m -jar benchmarks.jar OffheapMap -p variant=offheap-flyweight -p users=1000000
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class OffheapMap {
    /** System property naming this fork's GC log ({@code %p} stands for the pid, as in -Xlog). */
    public static final String GC_LOG_PROPERTY = "sympathy.gclog";
    /** System property naming where the map files go (default: the temp folder). */
    public static final String DIR_PROPERTY = "sympathy.offheap_map.dir";
    private static final int BATCH = 65_536;

    @Param({"heap-hashmap", "offheap-flyweight", "offheap-java-serialization", "chronicle-map"})
    public String variant;

    @Param({"100000"})
    public long users;

    @Param({"100000"})
    public long gets;

    @Param({"10000"})
    public long latencySamples;

    @Param({"10000"})
    public long traversals;

    private final Map<String, Double> measured = new LinkedHashMap<>();

    /** The params of this benchmark's results, in the catalog's names. */
    public static Map<String, Object> resultParams(long users, long gets, long latencySamples, long traversals) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("users", users);
        p.put("gets", gets);
        p.put("latency_samples", latencySamples);
        p.put("traversals", traversals);
        return p;
    }

    /** The JVM flags a variant's fork needs besides its -Xmx (Chronicle Map's on JDK 25). */
    public static List<String> jvmFlags(String variant) {
        return variant.equals("chronicle-map") ? ChronicleStore.JVM_FLAGS : List.of();
    }

    /** The -Xmx a variant's fork gets, in MiB: the heap map holds ~300 bytes a user. */
    public static long heapMib(String variant, long users) {
        return variant.equals("heap-hashmap") ? users * 500 / (1 << 20) + 1024 : 512;
    }

    private UserStore open() {
        Path dir = Path.of(System.getProperty(DIR_PROPERTY, System.getProperty("java.io.tmpdir")));
        Path file = dir.resolve("sympathy-offheap-map-" + variant + "-" + ProcessHandle.current().pid() + ".map");
        return switch (variant) {
            case "heap-hashmap" -> new HeapHashMapStore();
            case "offheap-flyweight", "offheap-java-serialization" ->
                    new OffheapStore(file, OffheapStore.codecOf(variant), users);
            case "chronicle-map" -> new ChronicleStore(file, users);
            default -> throw new IllegalArgumentException("offheap-map: unknown variant '" + variant
                    + "' (expected heap-hashmap, offheap-flyweight, offheap-java-serialization, chronicle-map)");
        };
    }

    private static long randomId(long stream, long i, long users) {
        return Long.remainderUnsigned(Users.mix(i ^ Long.rotateLeft(stream, 48)), users);
    }

    /** The benchmark thread, on the core Rust's run takes (the {@code pinned} parity fact records it). */
    @Setup(Level.Iteration)
    public void pin() {
        Pinning.pinToAvailable(0);
    }

    /** One run; returns the walks' checksum (consumed by JMH). */
    @Benchmark
    public long run() throws IOException {
        measured.clear();
        try (UserStore store = open()) {
            long putNanos = 0;
            long timedPuts = 0;
            for (long first = 0; first < users; first += BATCH) {
                long last = Math.min(users, first + BATCH);
                List<User> batch = new ArrayList<>((int) (last - first));
                for (long id = first; id < last; id++) {
                    batch.add(Users.generate(id, users));
                }
                long start = System.nanoTime();
                for (User user : batch) {
                    store.put(user);
                }
                long took = System.nanoTime() - start;
                // the first batch of a map of more than one batch is put untimed, in both languages:
                // it warms the code (the interpreter's and C1's first) and the map's first pages
                if (first > 0 || users <= BATCH) {
                    putNanos += took;
                    timedPuts += last - first;
                }
            }
            measured.put("put_ops_per_sec", timedPuts / (putNanos / 1e9));
            lookups(store, 3, Math.min(gets, 100_000)); // warm-up, untimed
            measured.put("get_ops_per_sec", gets / (lookups(store, 1, gets) / 1e9));
            latencies(store, 6, Math.min(latencySamples, 10_000), false); // warm-up, untimed, as Rust's
            latencies(store, 5, latencySamples, true);
            walks(store, 4, Math.min(traversals, 10_000));
            long[] walked = new long[1];
            measured.put("traversals_per_sec", traversals / (walks(store, 2, traversals, walked) / 1e9));
            fullGc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            measured.put("heap_bytes", (double) heap);
            measured.put("native_bytes", (double) store.nativeBytes());
            long used = store.nativeBytes() == 0 ? heap : store.usedNativeBytes();
            measured.put("bytes_per_record", used / (double) users);
            double reopen = store.reopenMs();
            if (reopen >= 0) {
                measured.put("reopen_ms", reopen);
            }
            return walked[0];
        }
    }

    /** {@code count} timed lookups of random users of {@code stream}; the nanoseconds they took. */
    private long lookups(UserStore store, long stream, long count) {
        long[] keys = new long[(int) count];
        long expected = 0;
        for (int i = 0; i < keys.length; i++) {
            keys[i] = randomId(stream, i, users);
            expected += Users.friendCount(keys[i], users);
        }
        long sum = 0;
        long start = System.nanoTime();
        for (long key : keys) {
            int n = store.friendCount(key);
            if (n < 0) {
                throw new IllegalStateException(variant + ": user " + key + " is missing");
            }
            sum += n;
        }
        long took = System.nanoTime() - start;
        if (sum != expected) {
            throw new IllegalStateException(variant + ": the friend counts of " + count + " lookups sum to " + sum
                    + ", expected " + expected);
        }
        return took;
    }

    /**
     * {@code count} lookups of random users of {@code stream} timed one by one; with {@code record},
     * their median and 99th percentile, each less the cost of timing nothing ({@link #clockCostNanos}),
     * as Rust's samples are less the cost of its clock.
     */
    private void latencies(UserStore store, long stream, long count, boolean record) {
        long cost = clockCostNanos();
        long[] samples = new long[(int) count];
        for (int i = 0; i < samples.length; i++) {
            long key = randomId(stream, i, users);
            long start = System.nanoTime();
            int n = store.friendCount(key);
            samples[i] = Math.max(0, System.nanoTime() - start - cost);
            if (n < 0) {
                throw new IllegalStateException(variant + ": user " + key + " is missing");
            }
        }
        if (record) {
            Arrays.sort(samples);
            measured.put("get_p50_ns", (double) samples[rank(0.50, samples.length)]);
            measured.put("get_p99_ns", (double) samples[rank(0.99, samples.length)]);
        }
    }

    /** The median cost of timing nothing with two {@code nanoTime} calls, over 1,000 tries. */
    private static long clockCostNanos() {
        long[] empty = new long[1_000];
        for (int i = 0; i < empty.length; i++) {
            long start = System.nanoTime();
            empty[i] = System.nanoTime() - start;
        }
        Arrays.sort(empty);
        return empty[empty.length / 2];
    }

    private static int rank(double q, int n) {
        return (int) Math.max(1, Math.min(n, Math.ceil(q * n))) - 1;
    }

    private long walks(UserStore store, long stream, long count) {
        return walks(store, stream, count, new long[1]);
    }

    /** {@code count} friend-of-friend walks; the nanoseconds they took; their checksum in {@code sum[0]}. */
    private long walks(UserStore store, long stream, long count, long[] sum) {
        long[] starts = new long[(int) count];
        long expected = 0;
        for (int i = 0; i < starts.length; i++) {
            starts[i] = randomId(stream, i, users);
            int n = Users.friendCount(starts[i], users);
            for (int k = 0; k < n; k++) {
                long friend = Users.friend(starts[i], users, k);
                int m = Users.friendCount(friend, users);
                for (int j = 0; j < m; j++) {
                    expected += Users.friend(friend, users, j);
                }
            }
        }
        long[] friends = new long[16];
        long[] theirs = new long[16];
        long total = 0;
        long start = System.nanoTime();
        for (long user : starts) {
            int n = store.friends(user, friends);
            if (n < 0) {
                throw new IllegalStateException(variant + ": user " + user + " is missing from a walk");
            }
            for (int k = 0; k < n; k++) {
                int m = store.friends(friends[k], theirs);
                if (m < 0) {
                    throw new IllegalStateException(variant + ": user " + friends[k] + " is missing from a walk");
                }
                for (int j = 0; j < m; j++) {
                    total += theirs[j];
                }
            }
        }
        long took = System.nanoTime() - start;
        if (total != expected) {
            throw new IllegalStateException(variant + ": " + count + " walks summed the friends' friends to " + total
                    + ", expected " + expected);
        }
        sum[0] = total;
        return took;
    }

    /** Times a System.gc() with the map loaded, and reads its pause from this fork's GC log. */
    private void fullGc() throws IOException {
        long start = System.nanoTime();
        System.gc();
        measured.put("full_gc_ms", (System.nanoTime() - start) / 1e6);
        String pattern = System.getProperty(GC_LOG_PROPERTY);
        if (pattern != null) {
            Path log = Path.of(pattern.replace("%p", Long.toString(ProcessHandle.current().pid())));
            Double pause = lastSystemGcPause(Files.exists(log) ? Files.readString(log) : "");
            if (pause != null) {
                measured.put("gc_log_pause_ms", pause);
            }
        }
    }

    private static final Pattern SYSTEM_GC = Pattern.compile("Pause Full \\(System\\.gc\\(\\)\\).* ([0-9.]+)ms");

    /** The pause in ms of the last {@code Pause Full (System.gc())} line of a {@code -Xlog:gc} log, or null. */
    public static Double lastSystemGcPause(String log) {
        Double last = null;
        for (String line : log.split("\n")) {
            Matcher m = SYSTEM_GC.matcher(line);
            if (m.find()) {
                last = Double.parseDouble(m.group(1));
            }
        }
        return last;
    }

    /** The unit of each metric this benchmark records. */
    private static String unitOf(String metric) {
        return switch (metric) {
            case "put_ops_per_sec" -> "puts/s";
            case "get_ops_per_sec" -> "gets/s";
            case "traversals_per_sec" -> "walks/s";
            case "heap_bytes", "native_bytes", "bytes_per_record" -> "bytes";
            case "reopen_ms", "full_gc_ms", "gc_log_pause_ms" -> "ms";
            default -> "ns";
        };
    }

    @TearDown(Level.Iteration)
    public void record(IterationParams iteration) {
        if (iteration.getType() != IterationType.MEASUREMENT) {
            return;
        }
        Map<String, Object> params = resultParams(users, gets, latencySamples, traversals);
        for (Map.Entry<String, Double> e : measured.entrySet()) {
            String metric = e.getKey();
            boolean measuredNotVerified = metric.endsWith("_bytes") || metric.equals("bytes_per_record")
                    || metric.contains("gc");
            Extras.record("offheap-map", variant, params, metric, unitOf(metric), e.getValue(),
                    measuredNotVerified ? "n/a" : "ok");
        }
    }
}
