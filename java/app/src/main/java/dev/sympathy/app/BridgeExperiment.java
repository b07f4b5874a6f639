package dev.sympathy.app;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.CatalogException;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Language;
import dev.sympathy.catalog.ParamSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.results.Stats;
import dev.sympathy.ring.RingFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * {@code run bridge}: the bridge experiment of the catalog ({@code experiments/bridge.toml}) with
 * the ring ends in Java, the twin of {@code sympathy run bridge}, and the Aeron reference rows
 * (Java only). The bridge's ends are child JVMs ({@code bridge send|receive|duplex}), as are the
 * Aeron reference peers ({@code bridge aeron-sub|aeron-pub|aeron-pong|aeron-ping}); the ring ends
 * are a child JVM (the producer: {@code produce}; the echo: {@code echo}) and a thread of this JVM
 * (the consumer, the pinger), pinned as {@code run ipc} pins its ends.
 *
 * <ul>
 *   <li>{@code ring-aeron-ring}: rings A and B; {@code bridge receive B}, {@code bridge send A};
 *       a producer JVM (core P) writes {@code count} pattern messages into A; this JVM (core C)
 *       reads and verifies them from B, timed first to last: {@code (count - 1) / seconds}.
 *   <li>{@code ring-aeron-ring-echo}: rings A-out, A-in, B-in, B-out; a duplex bridge per host
 *       (A: A-out out, A-in in; B: B-out out, B-in in); an echo JVM (core C) copies B-in to
 *       B-out; this JVM (core P) pings A-out and reads A-in, one message in flight, after
 *       {@code max(round_trips / 10, 2000)} untimed round trips: p50, p99, p99.9, max.
 *   <li>{@code aeron}: {@code bridge aeron-sub} then {@code bridge aeron-pub}: the bridge's
 *       frames without the rings; the subscriber's first-to-last time.
 *   <li>{@code aeron-echo}: {@code bridge aeron-pong} then {@code bridge aeron-ping}: the bridge's
 *       frames in a ping-pong, warmed up as the ring echo.
 * </ul>
 *
 * <p>Transports ({@code transport}, one case each): {@code ipc} ({@code aeron:ipc}, distinct
 * streams, one driver: the first JVM's, at a fresh {@code --aeron-dir}, the others with
 * {@code --external-driver}), {@code udp} (loopback, a driver per JVM), {@code veth} (two network
 * namespaces joined by a veth pair, made with {@code sympathy bridge hosts up --prefix sym<pid>}
 * and removed at the end; host A's JVMs run under {@code ip netns exec sym<pid>-a}, host B's under
 * {@code -b}; the ring ends need no namespace).
 *
 * <p>Liveness: every wait has a deadline; a peer that exits early fails the case with what it
 * printed; a failed case's processes are destroyed and the run goes on with the next case, then
 * exits 1 naming every failed case.
 *
 * <pre>
 * java/sidecar run bridge --smoke
 * java/sidecar run bridge --quick --json
 * java/sidecar run bridge --plan --quick
 * java/sidecar run bridge --variants aeron,aeron-echo --transports ipc,veth --runs 3
 * </pre>
 */
final class BridgeExperiment {
    private BridgeExperiment() {}

    static final String NAME = "bridge";
    private static final String COMMAND = "run bridge";

    /** The transports a case can take (the catalog's {@code transport} values). */
    static final List<String> TRANSPORTS = List.of("ipc", "udp", "veth");

    /** Host A's and host B's addresses on the veth pair ({@code sympathy bridge hosts up}). */
    static final String ADDRESS_A = "10.201.0.1";
    static final String ADDRESS_B = "10.201.0.2";
    static final String LOOPBACK = "127.0.0.1";

    /** The bridge's ports: data A to B, confirms B to A, data B to A, confirms A to B. */
    static final int DATA_PORT = 40_123;
    static final int CONFIRM_PORT = 40_124;
    static final int REVERSE_DATA_PORT = 40_125;
    static final int REVERSE_CONFIRM_PORT = 40_126;
    /** The Aeron reference rows' ports: frames A to B, replies B to A. */
    static final int REFERENCE_PORT = 40_133;
    static final int REFERENCE_REPLY_PORT = 40_134;

    /** Stream ids: the bridge's defaults, and the reverse direction's (duplex's {@code --in-*} defaults). */
    static final int STREAM = 1001;
    static final int CONFIRM_STREAM = 1002;
    static final int REVERSE_STREAM = 1003;
    static final int REVERSE_CONFIRM_STREAM = 1004;

    /** How long a child JVM may take to print its first line (a JVM start, an Aeron driver). */
    static final long READY_MS = 60_000;
    /** How long a loop may see no progress before the case fails. */
    static final long NO_PROGRESS_MS = 30_000;
    /** How long a process may take to exit once done or told to stop. */
    static final long STOP_MS = 20_000;
    /** The exit status of a JVM that ran its shutdown hooks on SIGTERM (what a stopped bridge end exits with). */
    static final int SIGTERM_EXIT = 143;

    /** The least untimed round trips of an echo case. */
    static final long MIN_WARMUP = 2_000;

    /** Every process a run started and has not seen exit: destroyed if this JVM is stopped. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    /** The veth hosts of the run in progress (removed if this JVM is stopped). */
    private static volatile Hosts hosts;

    /**
     * One result group: a variant over a transport. {@code messages} is {@code count} for the
     * throughput variants, {@code round_trips} for the echo ones.
     */
    record Case(String variant, String transport, int sizeBytes, long capacity, long messages) {
        /** A throughput variant (msgs_per_sec), not a round trip one. */
        boolean throughput() {
            return variant.equals("ring-aeron-ring") || variant.equals("aeron");
        }

        /** An Aeron reference row (no rings, no pinned ends). */
        boolean reference() {
            return variant.equals("aeron") || variant.equals("aeron-echo");
        }

        /** The param that holds {@link #messages}. */
        String countParam() {
            return throughput() ? "count" : "round_trips";
        }

        /** The untimed round trips before the timed ones of an echo case. */
        long warmup() {
            return warmupFor(messages);
        }

        /** The params, in the order and with the names of the catalog. */
        Map<String, Object> params() {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("transport", transport);
            params.put("size_bytes", sizeBytes);
            params.put("capacity", capacity);
            params.put(countParam(), messages);
            return params;
        }

        /** The plan line ({@link PlanLine}). */
        String planJson() {
            return PlanLine.json(NAME, variant, params());
        }

        String label() {
            return variant + " over " + transport;
        }
    }

    /** The untimed round trips before {@code timed} timed ones: a tenth, at least {@value #MIN_WARMUP}. */
    static long warmupFor(long timed) {
        return Math.max(timed / 10, MIN_WARMUP);
    }

    /**
     * Command-line values that replace the catalog's ({@code --size}, {@code --capacity},
     * {@code --count}, {@code --round-trips}, as the Rust runner takes them; null: the catalog's).
     */
    record Overrides(Long sizeBytes, Long capacity, Long count, Long roundTrips) {
        static final Overrides NONE = new Overrides(null, null, null, null);
    }

    /**
     * The cases of {@code variants} (empty: the Java variants the catalog runs at {@code at}) over
     * {@code transports} (empty: the catalog's at {@code at}), variant by variant, the transports
     * in order, with {@code overrides} applied.
     */
    static List<Case> cases(ExperimentSpec spec, List<String> variants, List<String> transports, Preset at,
            Overrides overrides) {
        List<String> java = spec.variantsIn(Language.JAVA);
        for (String v : variants) {
            if (!java.contains(v)) {
                throw new UsageException(COMMAND + ": unknown variant '" + v + "' (choose from " + String.join(", ", java)
                        + ")");
            }
        }
        for (int k = 0; k < transports.size(); k++) {
            String t = transports.get(k);
            if (!TRANSPORTS.contains(t)) {
                throw new UsageException(COMMAND + ": unknown transport '" + t + "' (choose from "
                        + String.join(", ", TRANSPORTS) + ")");
            }
            if (transports.subList(0, k).contains(t)) {
                throw new UsageException(COMMAND + ": --transports names " + t + " twice");
            }
        }
        List<String> chosen = variants.isEmpty() ? spec.variantsAt(Language.JAVA, at) : variants;
        List<String> ways = transports.isEmpty()
                ? param(spec, "transport").valuesAt(at).stream().map(String::valueOf).toList()
                : transports;
        for (String t : ways) {
            if (!TRANSPORTS.contains(t)) {
                throw new CatalogException("experiments/bridge.toml: transport '" + t + "' at " + at.label()
                        + " is none this runner knows (" + String.join(", ", TRANSPORTS) + ")");
            }
        }
        long size = overrides.sizeBytes() != null ? overrides.sizeBytes() : param(spec, "size_bytes").longAt(at);
        long capacity = overrides.capacity() != null ? overrides.capacity() : param(spec, "capacity").longAt(at);
        long largest = capacity / 8;
        if (size < 8 || size > largest) {
            throw new UsageException(COMMAND + ": size " + size + " is outside 8.." + largest + " (the pattern's index"
                    + " takes 8 bytes; a ring of " + capacity + " bytes takes capacity / 8): pick a size in that range"
                    + " or a larger --capacity");
        }
        long count = overrides.count() != null ? overrides.count() : param(spec, "count").longAt(at);
        long roundTrips = overrides.roundTrips() != null ? overrides.roundTrips()
                : param(spec, "round_trips").longAt(at);
        if (count < 2 || roundTrips < 1 || roundTrips > Integer.MAX_VALUE - warmupFor(roundTrips)) {
            throw new UsageException(COMMAND + ": count " + count + " / round trips " + roundTrips + ": a throughput run"
                    + " times the first message to the last (2 or more), an echo run needs a round trip");
        }
        List<Case> cases = new ArrayList<>();
        for (String variant : java) {
            if (!chosen.contains(variant)) {
                continue;
            }
            String name = spec.variantName(Language.JAVA, variant);
            boolean throughput = name.equals("ring-aeron-ring") || name.equals("aeron");
            for (String transport : ways) {
                cases.add(new Case(name, transport, (int) size, capacity, throughput ? count : roundTrips));
            }
        }
        return cases;
    }

    private static ParamSpec param(ExperimentSpec spec, String name) {
        return spec.param(name).orElseThrow(() -> new CatalogException("experiments/bridge.toml has no param `" + name
                + "`"));
    }

    private static List<String> list(String csv) {
        return csv.isBlank() ? List.of() : Arrays.stream(csv.split(",")).map(String::trim).toList();
    }

    private static Long optional(Args args, String name, long min, long max) {
        return args.flag(name) ? args.longOption(name, min, max, 0) : null;
    }

    /**
     * {@code run bridge [--smoke|--quick|--full] [--json] [--plan] [--variants V,..]
     * [--transports T,..] [--size S] [--capacity B] [--count N] [--round-trips N] [--runs R]
     * [--cores P,C]}.
     */
    static void run(String[] argv) throws IOException, InterruptedException {
        Args args = new Args(COMMAND, argv, 2, Set.of("variants", "transports", "transport", "size", "capacity", "count",
                "round-trips", "runs", "cores"), Set.of("smoke", "quick", "full", "json", "plan"));
        args.expectPositional(0);
        String preset = IpcExperiment.preset(COMMAND, args);
        Preset at = Preset.valueOf(preset.toUpperCase(Locale.ROOT));
        ExperimentSpec spec = Catalog.fromProperty().experiment(NAME);
        Overrides overrides = new Overrides(optional(args, "size", 8, 1L << 27), optional(args, "capacity", 64, 1L << 30),
                optional(args, "count", 2, Long.MAX_VALUE), optional(args, "round-trips", 1, Integer.MAX_VALUE));
        String transports = args.string("transports", args.string("transport", ""));
        List<Case> cases = cases(spec, list(args.string("variants", "")), list(transports), at, overrides);
        if (args.flag("plan")) {
            cases.forEach(c -> System.out.println(c.planJson()));
            return;
        }
        int runs = (int) args.longOption("runs", 1, 1000, spec.runs().getOrDefault(preset, 1));
        Cores cores = Cores.parse(COMMAND, args.string("cores", ""));
        if (cases.stream().anyMatch(c -> !c.reference())) {
            cores.checked(COMMAND);
        }
        Output out = new Output(args.flag("json"));
        Thread cleanup = new Thread(BridgeExperiment::cleanUp, "run-bridge-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        List<String> failed = new ArrayList<>();
        try {
            measure(cases, runs, cores, preset, out, failed);
        } finally {
            Hosts.release();
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        if (!failed.isEmpty()) {
            throw new IllegalStateException(failed.size() + " of " + cases.size() + " bridge cases failed:\n  "
                    + String.join("\n  ", failed));
        }
    }

    /** This JVM stopped while a run was in progress: its processes, their files and its veth hosts go. */
    private static void cleanUp() {
        for (Process p : LIVE) {
            p.destroyForcibly();
        }
        for (Process p : LIVE) {
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Path dir : List.copyOf(SCRATCH_DIRS)) {
            deleteTree(dir);
        }
        Hosts made = hosts;
        if (made != null) {
            made.down();
        }
    }

    /**
     * Measures every case {@code runs} times and reports each with the runner params cores (the
     * ring rows), preset, pinning and jvm_args. The cases of one variant alternate run by run (run
     * 0 of each transport, then run 1, ...), as the Rust runner's, so that a drifting machine hits
     * each alike. A case that fails is not run again, is named in {@code failed}, and the others go on.
     */
    private static void measure(List<Case> cases, int runs, Cores cores, String preset, Output out, List<String> failed)
            throws InterruptedException {
        String[] rtt = {"rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"};
        int from = 0;
        while (from < cases.size()) {
            int to = from;
            while (to < cases.size() && cases.get(to).variant().equals(cases.get(from).variant())) {
                to++;
            }
            List<Case> group = cases.subList(from, to);
            double[][][] samples = new double[group.size()][rtt.length][runs];
            boolean[] broken = new boolean[group.size()];
            for (int run = 0; run < runs; run++) {
                for (int k = 0; k < group.size(); k++) {
                    if (broken[k]) {
                        continue;
                    }
                    Case c = group.get(k);
                    List<String> counters = new ArrayList<>();
                    try {
                        Net net = Net.of(c.transport());
                        Path dir = scratch(run);
                        try {
                            if (c.throughput()) {
                                double rate = c.reference() ? aeronThroughput(c, net, dir, counters)
                                        : ringThroughput(c, net, dir, cores, counters);
                                samples[k][0][run] = rate;
                                out.line(String.format("%d - %s: msgs/s=%s", run, c.label(), Output.human(rate)));
                            } else {
                                long[] values = c.reference() ? aeronEcho(c, net, dir, counters)
                                        : ringEcho(c, net, dir, cores, counters);
                                for (int m = 0; m < rtt.length; m++) {
                                    samples[k][m][run] = values[m];
                                }
                                out.line(String.format("%d - %s: rtt p50=%dns p99=%dns p99.9=%dns max=%dns", run,
                                        c.label(), values[0], values[1], values[2], values[3]));
                            }
                        } finally {
                            deleteTree(dir);
                        }
                        counters.forEach(line -> out.line("    " + line));
                    } catch (RuntimeException | IOException e) {
                        String why = e.getMessage() != null ? e.getMessage() : e.toString();
                        broken[k] = true;
                        failed.add(c.label() + " (run " + run + "): " + why);
                        System.err.println("run bridge: " + c.label() + " failed (run " + run + "): " + why);
                    }
                }
            }
            for (int k = 0; k < group.size(); k++) {
                if (broken[k]) {
                    continue;
                }
                Case c = group.get(k);
                Map<String, Object> params = c.params();
                if (!c.reference()) {
                    params.put("cores", cores.label());
                }
                params.put("preset", preset);
                params.put("pinning", c.reference() ? "unpinned" : "pinned");
                params.put("jvm_args", String.join(" ", ChildJvm.jvmArgs()));
                out.line("# " + c.label() + ":");
                if (c.throughput()) {
                    out.result(NAME, c.variant(), params, "msgs_per_sec", "msgs/s", Stats.of(samples[k][0]));
                } else {
                    for (int m = 0; m < rtt.length; m++) {
                        out.result(NAME, c.variant(), params, rtt[m], "ns", Stats.of(samples[k][m]));
                    }
                }
            }
            from = to;
        }
    }

    /** p50, p99, p99.9 and the largest of {@code rtt} (nanoseconds; sorted in place), as {@code run ipc}'s echo reports them. */
    static long[] percentiles(long[] rtt) {
        Arrays.sort(rtt);
        return new long[] {Stats.quantile(rtt, 0.50), Stats.quantile(rtt, 0.99), Stats.quantile(rtt, 0.999),
            rtt[rtt.length - 1]};
    }

    // ---- the transports --------------------------------------------------------------------

    /**
     * How a case's two hosts are joined: the command prefixes of host A's and host B's JVMs and
     * their addresses ({@code ipc}: one host, one driver).
     */
    record Net(String transport, List<String> onA, List<String> onB, String addressA, String addressB) {
        static Net of(String transport) throws IOException, InterruptedException {
            return switch (transport) {
                case "ipc" -> new Net(transport, List.of(), List.of(), LOOPBACK, LOOPBACK);
                case "udp" -> new Net(transport, List.of(), List.of(), LOOPBACK, LOOPBACK);
                case "veth" -> {
                    Hosts made = Hosts.up();
                    yield new Net(transport, made.on("a"), made.on("b"), ADDRESS_A, ADDRESS_B);
                }
                default -> throw new UsageException(COMMAND + ": unknown transport '" + transport + "'");
            };
        }

        boolean ipc() {
            return transport.equals("ipc");
        }

        /** A channel to host A ({@code aeron:ipc} over ipc). */
        String toA(int port) {
            return ipc() ? "aeron:ipc" : "aeron:udp?endpoint=" + addressA + ":" + port;
        }

        /** A channel to host B ({@code aeron:ipc} over ipc). */
        String toB(int port) {
            return ipc() ? "aeron:ipc" : "aeron:udp?endpoint=" + addressB + ":" + port;
        }

        /**
         * The driver options of a JVM on host A ({@code a}) or B: over ipc the one driver in
         * {@code dir}, embedded by the {@code first} JVM and shared by the others; else a driver
         * per JVM, in a folder of its own.
         */
        List<String> driver(Path dir, boolean a, boolean first) {
            if (ipc()) {
                String shared = dir.resolve("aeron").toString();
                return first ? List.of("--aeron-dir", shared) : List.of("--external-driver", "--aeron-dir", shared);
            }
            return List.of("--aeron-dir", dir.resolve(a ? "aeron-a" : "aeron-b").toString());
        }
    }

    /**
     * The veth transport's two hosts: network namespaces {@code sym<pid>-a} (10.201.0.1) and
     * {@code -b} (10.201.0.2), made once per run by the Rust binary's {@code bridge hosts up} and
     * removed by {@code bridge hosts down}. When they cannot be made (not root, no Rust side),
     * every veth case fails with the same message.
     */
    static final class Hosts {
        private static String failure;
        private final String prefix = "sym" + ProcessHandle.current().pid();
        private final Path sympathy;

        private Hosts(Path sympathy) {
            this.sympathy = sympathy;
        }

        /** The run's hosts, made on first use. */
        static synchronized Hosts up() throws IOException, InterruptedException {
            if (hosts != null) {
                return hosts;
            }
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            try {
                Hosts made = new Hosts(SympathyBinary.find(IpcExperiment.repositoryRoot()));
                made.action("up");
                hosts = made;
                return made;
            } catch (SympathyBinary.Unavailable e) {
                failure = "the veth transport's hosts are made by the Rust side (`sympathy bridge hosts up`): "
                        + e.getMessage();
            } catch (IllegalStateException e) {
                failure = e.getMessage();
            }
            throw new IllegalStateException(failure);
        }

        /** Removes the run's hosts, if it made them, and forgets a failure to make them (the run is over). */
        static synchronized void release() {
            Hosts made = hosts;
            hosts = null;
            failure = null;
            if (made != null) {
                made.down();
            }
        }

        /** The command prefix of a JVM on host {@code side} ({@code a} or {@code b}). */
        List<String> on(String side) {
            return List.of("ip", "netns", "exec", prefix + "-" + side);
        }

        /** Removes the namespaces; a failure is only said. */
        void down() {
            try {
                action("down");
            } catch (IOException | InterruptedException | RuntimeException e) {
                System.err.println("run bridge: removing the veth hosts " + prefix + "-a, -b: " + e.getMessage());
            }
        }

        /** {@code sympathy bridge hosts ACTION --prefix P}; fails with its output. */
        private void action(String action) throws IOException, InterruptedException {
            List<String> command = List.of(sympathy.toString(), "bridge", "hosts", action, "--prefix", prefix);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("`" + String.join(" ", command) + "` did not finish within 60 s");
            }
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                throw new IllegalStateException("the veth transport needs two network namespaces: `"
                        + String.join(" ", command) + "` failed (exit status " + p.exitValue() + "): " + output);
            }
        }
    }

    // ---- the four variants ------------------------------------------------------------------

    private static final java.util.concurrent.atomic.AtomicBoolean CONSUMER_WARM =
            new java.util.concurrent.atomic.AtomicBoolean();

    /** One ring-aeron-ring run: messages per second through producer, ring A, the bridge, ring B and this consumer. */
    private static double ringThroughput(Case c, Net net, Path dir, Cores cores, List<String> counters)
            throws IOException, InterruptedException {
        Path a = dir.resolve("a.ring");
        Path b = dir.resolve("b.ring");
        RingImpl ffm = Impls.byName(COMMAND, "ffm");
        try (RingFile ringA = RingFile.create(a, c.capacity());
                RingFile ringB = RingFile.create(b, c.capacity());
                Children kids = new Children()) {
            SizeSpec.parse(COMMAND, Integer.toString(c.sizeBytes()), 1).checkFits(COMMAND, ringA.maxMessageLength());
            String data = net.toB(DATA_PORT);
            String confirm = net.toA(CONFIRM_PORT);
            List<String> send = List.of("bridge", "send", a.toString(), "--channel", data, "--confirm-channel", confirm,
                    "--stream", Integer.toString(STREAM), "--confirm-stream", Integer.toString(CONFIRM_STREAM));
            List<String> receive = List.of("bridge", "receive", b.toString(), "--channel", data, "--confirm-channel",
                    confirm, "--stream", Integer.toString(STREAM), "--confirm-stream", Integer.toString(CONFIRM_STREAM));
            Child sender;
            Child receiver;
            if (net.ipc()) { // the sender's driver, the receiver on it
                sender = kids.ready("bridge send (host A)", net.onA(), concat(send, net.driver(dir, true, true)));
                receiver = kids.ready("bridge receive (host B)", net.onB(), concat(receive, net.driver(dir, false, false)));
            } else {
                receiver = kids.ready("bridge receive (host B)", net.onB(), concat(receive, net.driver(dir, false, true)));
                sender = kids.ready("bridge send (host A)", net.onA(), concat(send, net.driver(dir, true, true)));
            }
            if (!CONSUMER_WARM.getAndSet(true)) {
                // This JVM's consume loop compiled before the first measured message, as run ipc's ring-cross.
                Cores.onPinnedThread(COMMAND, "consumer", cores.consumer(), () -> {
                    Warmup.run(ffm, Integer.toString(c.sizeBytes()), Warmup.DEFAULT_MESSAGES, WriteMode.PER_MESSAGE);
                    return null;
                });
            }
            Child producer = kids.start("producer", List.of(), List.of("produce", a.toString(), "--count",
                    Long.toString(c.messages()), "--size", Integer.toString(c.sizeBytes()), "--impl", "ffm", "--core",
                    Integer.toString(cores.producer()), "--timeout-ms", Long.toString(NO_PROGRESS_MS)));
            ConsumeLoop loop = new ConsumeLoop();
            loop.count = c.messages();
            loop.timeoutMs = NO_PROGRESS_MS;
            // A bridge end that exits stops the run at once: ring B's producer (the receiver) is
            // killed, which the consume loop sees as its producer's death.
            Watchdog watch = new Watchdog(List.of(sender, receiver), List.of(producer), null,
                    receiver::kill);
            MessageCheck check;
            try {
                check = Cores.onPinnedThread(COMMAND, "consumer", cores.consumer(), () -> loop.run(ringB, ffm));
            } catch (RuntimeException | Error e) {
                throw kids.failure(e, watch.stop());
            } finally {
                watch.stop();
            }
            producer.finish(STOP_MS);
            kids.stopAll(counters);
            if (check.bytes() != c.messages() * c.sizeBytes()) {
                throw new IllegalStateException("verified " + check.bytes() + " bytes, expected "
                        + c.messages() * c.sizeBytes());
            }
            return (c.messages() - 1) / (Math.max(loop.elapsedNanos, 1) / 1e9);
        }
    }

    /** One ring-aeron-ring-echo run: p50, p99, p99.9, max of the round trips, in nanoseconds. */
    private static long[] ringEcho(Case c, Net net, Path dir, Cores cores, List<String> counters)
            throws IOException, InterruptedException {
        Path aOut = dir.resolve("a-out.ring");
        Path aIn = dir.resolve("a-in.ring");
        Path bIn = dir.resolve("b-in.ring");
        Path bOut = dir.resolve("b-out.ring");
        RingImpl ffm = Impls.byName(COMMAND, "ffm");
        long warmup = c.warmup();
        long count = warmup + c.messages();
        for (Path far : List.of(bIn, bOut)) {
            RingFile.create(far, c.capacity()).close(); // host B's: the echo and host B's bridge open them
        }
        try (RingFile ping = RingFile.create(aOut, c.capacity());
                RingFile pong = RingFile.create(aIn, c.capacity());
                Children kids = new Children()) {
            SizeSpec.parse(COMMAND, Integer.toString(c.sizeBytes()), 1).checkFits(COMMAND, ping.maxMessageLength());
            String data = net.toB(DATA_PORT);
            String confirm = net.toA(CONFIRM_PORT);
            String reverse = net.toA(REVERSE_DATA_PORT);
            String reverseConfirm = net.toB(REVERSE_CONFIRM_PORT);
            List<String> hostA = List.of("bridge", "duplex", "--send", aOut.toString(), "--receive", aIn.toString(),
                    "--channel", data, "--confirm-channel", confirm, "--stream", Integer.toString(STREAM),
                    "--confirm-stream", Integer.toString(CONFIRM_STREAM), "--in-channel", reverse,
                    "--in-confirm-channel", reverseConfirm, "--in-stream", Integer.toString(REVERSE_STREAM),
                    "--in-confirm-stream", Integer.toString(REVERSE_CONFIRM_STREAM));
            List<String> hostB = List.of("bridge", "duplex", "--send", bOut.toString(), "--receive", bIn.toString(),
                    "--channel", reverse, "--confirm-channel", reverseConfirm, "--stream",
                    Integer.toString(REVERSE_STREAM), "--confirm-stream", Integer.toString(REVERSE_CONFIRM_STREAM),
                    "--in-channel", data, "--in-confirm-channel", confirm, "--in-stream", Integer.toString(STREAM),
                    "--in-confirm-stream", Integer.toString(CONFIRM_STREAM));
            Child a = kids.ready("bridge duplex (host A)", net.onA(), concat(hostA, net.driver(dir, true, true)));
            Child b = kids.ready("bridge duplex (host B)", net.onB(), concat(hostB, net.driver(dir, false, false)));
            Child echo = kids.start("echo", List.of(), List.of("echo", bIn.toString(), bOut.toString(), "--count",
                    Long.toString(count), "--impl", "ffm", "--timeout-ms", Long.toString(NO_PROGRESS_MS), "--core",
                    Integer.toString(cores.consumer())));
            MessageCheck check = new MessageCheck(0);
            long[] rtt = new long[Math.toIntExact(c.messages())];
            byte[] message = new byte[c.sizeBytes()];
            // The pinger spins on the echo without a deadline of its own: the watchdog ends it (by
            // destroying the echo, which the pinger sees) when a bridge end exits or nothing comes back.
            Watchdog watch = new Watchdog(List.of(a, b), List.of(echo), check::received, echo::kill);
            try {
                Cores.onPinnedThread(COMMAND, "ping", cores.producer(), () -> {
                    EchoLoop.run(ffm, ping, pong, check, echo.process, message, c.sizeBytes(), warmup, rtt);
                    return null;
                });
            } catch (RuntimeException | Error e) {
                throw kids.failure(e, watch.stop());
            } finally {
                watch.stop();
            }
            echo.finish(STOP_MS);
            kids.stopAll(counters);
            if (check.received() != count) {
                throw new IllegalStateException("received " + check.received() + " echoes, expected " + count);
            }
            return percentiles(rtt);
        }
    }

    /** One aeron run: messages per second, the subscriber's first frame to its last. */
    private static double aeronThroughput(Case c, Net net, Path dir, List<String> counters)
            throws IOException, InterruptedException {
        try (Children kids = new Children()) {
            List<String> common = List.of("--channel", net.toB(REFERENCE_PORT), "--stream", Integer.toString(STREAM),
                    "--count", Long.toString(c.messages()), "--size", Integer.toString(c.sizeBytes()), "--timeout-ms",
                    Long.toString(NO_PROGRESS_MS));
            Child sub = kids.ready("aeron-sub (host B)", net.onB(),
                    concat(concat(List.of("bridge", "aeron-sub"), common), net.driver(dir, false, true)));
            Child pub = kids.ready("aeron-pub (host A)", net.onA(),
                    concat(concat(List.of("bridge", "aeron-pub"), common), net.driver(dir, true, false)));
            kids.awaitExit(sub, hardCapMs(c.messages()));
            sub.finish(STOP_MS);
            long nanos = ChildJvm.value(sub.output(), "elapsed_ns", sub.name);
            pub.finish(STOP_MS);
            counters.add(pub.name + ": " + pub.lastLine());
            return (c.messages() - 1) / (Math.max(nanos, 1) / 1e9);
        }
    }

    /** One aeron-echo run: p50, p99, p99.9, max of the ping's round trips, in nanoseconds. */
    private static long[] aeronEcho(Case c, Net net, Path dir, List<String> counters)
            throws IOException, InterruptedException {
        long warmup = c.warmup();
        try (Children kids = new Children()) {
            List<String> channels = List.of("--channel", net.toB(REFERENCE_PORT), "--reply-channel",
                    net.toA(REFERENCE_REPLY_PORT), "--stream", Integer.toString(STREAM), "--reply-stream",
                    Integer.toString(CONFIRM_STREAM), "--size", Integer.toString(c.sizeBytes()), "--timeout-ms",
                    Long.toString(NO_PROGRESS_MS));
            Child pong = kids.ready("aeron-pong (host B)", net.onB(), concat(concat(List.of("bridge", "aeron-pong",
                    "--count", Long.toString(warmup + c.messages())), channels), net.driver(dir, false, true)));
            Child ping = kids.ready("aeron-ping (host A)", net.onA(), concat(concat(List.of("bridge", "aeron-ping",
                    "--count", Long.toString(c.messages()), "--warmup", Long.toString(warmup)), channels),
                    net.driver(dir, true, false)));
            kids.awaitExit(ping, hardCapMs(warmup + c.messages()));
            ping.finish(STOP_MS);
            String output = ping.output();
            long[] values = new long[4];
            String[] names = {"rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"};
            for (int m = 0; m < names.length; m++) {
                values[m] = ChildJvm.value(output, names[m], ping.name);
            }
            pong.finish(STOP_MS);
            counters.add(pong.name + ": " + pong.lastLine());
            return values;
        }
    }

    /**
     * The longest a reference run of {@code messages} may take (the peers' own no-progress
     * deadlines end a stalled one first): a safety net at 10k messages a second.
     */
    static long hardCapMs(long messages) {
        return READY_MS + 2 * NO_PROGRESS_MS + messages / 10;
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    // ---- the processes ----------------------------------------------------------------------

    /** A child process and the lines of its standard output, read as they come (stderr is inherited). */
    static final class Child {
        final String name;
        final Process process;
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final CountDownLatch firstLine = new CountDownLatch(1);
        private final Thread reader;
        /** Killed on purpose by {@link #kill}. */
        private volatile boolean killed;

        Child(String name, Process process) {
            this.name = name;
            this.process = process;
            this.reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                        firstLine.countDown();
                    }
                } catch (IOException e) {
                    // the process is gone; what it printed is kept
                } finally {
                    firstLine.countDown();
                }
            }, "run-bridge-out-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits for the first line (the peer is up); fails when it exits first or says nothing in time. */
        String awaitReady(long timeoutMs) throws InterruptedException {
            if (!firstLine.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the " + name + " process printed nothing within " + timeoutMs
                        + " ms (not up)");
            }
            if (lines.isEmpty()) {
                int rc = process.waitFor();
                throw new IllegalStateException("the " + name + " process exited (status " + rc
                        + ") before it was up; its error output is above");
            }
            return lines.get(0);
        }

        /** The last line it printed (a stopped bridge end's counters), or empty. */
        String lastLine() {
            synchronized (lines) {
                return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
            }
        }

        /** What it printed so far, one line each. */
        String output() {
            synchronized (lines) {
                return String.join("\n", lines) + (lines.isEmpty() ? "" : "\n");
            }
        }

        /** Waits up to {@code timeoutMs} for it to exit; returns its status. */
        int awaitExit(long timeoutMs) throws InterruptedException {
            if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the " + name + " process did not exit within " + timeoutMs + " ms"
                        + said());
            }
            LIVE.remove(process);
            reader.join(5_000); // the rest of its output
            return process.exitValue();
        }

        /** Waits for it to exit by itself; a status other than 0 fails, with what it printed. */
        void finish(long timeoutMs) throws InterruptedException {
            int rc = awaitExit(timeoutMs);
            if (rc != 0) {
                throw new IllegalStateException(exited(rc));
            }
        }

        /**
         * Stops a bridge end: SIGTERM, then it detaches, prints its counters and exits (0, or
         * {@value #SIGTERM_EXIT} as a JVM does after its shutdown hooks on SIGTERM); anything else
         * fails, with what it printed.
         */
        void stop(long timeoutMs) throws InterruptedException {
            // SIGTERM through the handle: Process.destroy() would also close the pipe its counters come on.
            process.toHandle().destroy();
            int rc = awaitExit(timeoutMs);
            if ((rc != 0 && rc != SIGTERM_EXIT) || lines.size() < 2) {
                throw new IllegalStateException("the " + name + " process did not stop cleanly on SIGTERM (exit status "
                        + rc + ", " + (lines.size() < 2 ? "no counters line" : "") + ")" + said());
            }
        }

        /** Its exit, with what it printed. */
        String exited(int rc) {
            return exited(rc, "");
        }

        /** Its exit {@code when} (e.g. {@code " before the run's end"}), with what it printed. */
        String exited(int rc, String when) {
            return "the " + name + " process exited with status " + rc + when + " (its error output is above)" + said();
        }

        /** Kills it on purpose (SIGKILL: the run is failing); {@link Children#failure} then says nothing of its exit. */
        void kill() {
            killed = true;
            process.destroyForcibly();
        }

        private String said() {
            String out = output().strip();
            return out.isEmpty() ? "" : "; it printed:\n    " + out.replace("\n", "\n    ");
        }
    }

    /** The processes of one run, in start order: closing destroys those still running. */
    static final class Children implements AutoCloseable {
        private final List<Child> children = new ArrayList<>();

        /** Starts the sidecar command {@code args} in a child JVM, run by {@code prefix} (a namespace's, or none). */
        Child start(String name, List<String> prefix, List<String> args) throws IOException {
            Process process = ChildJvm.start(prefix, args);
            LIVE.add(process);
            Child child = new Child(name, process);
            children.add(child);
            return child;
        }

        /** {@link #start}, then waits for its first line (the peer is up). */
        Child ready(String name, List<String> prefix, List<String> args) throws IOException, InterruptedException {
            Child child = start(name, prefix, args);
            child.awaitReady(READY_MS);
            return child;
        }

        /**
         * Waits up to {@code capMs} for {@code target} to exit; fails as soon as another child
         * exits with a status other than 0.
         */
        void awaitExit(Child target, long capMs) throws InterruptedException {
            long deadline = System.currentTimeMillis() + capMs;
            while (!target.process.waitFor(50, TimeUnit.MILLISECONDS)) {
                for (Child other : children) {
                    if (other != target && !other.process.isAlive() && other.process.exitValue() != 0) {
                        other.awaitExit(STOP_MS);
                        throw new IllegalStateException(other.exited(other.process.exitValue()));
                    }
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("the " + target.name + " process did not finish within " + capMs
                            + " ms" + target.said());
                }
            }
        }

        /** Stops every child still running (the bridge ends), the last started first; adds each one's counters line. */
        void stopAll(List<String> counters) throws InterruptedException {
            for (int k = children.size() - 1; k >= 0; k--) {
                Child child = children.get(k);
                if (child.process.isAlive()) {
                    child.stop(STOP_MS);
                    counters.add(child.name + ": " + child.lastLine());
                }
            }
        }

        /**
         * The failure of a run whose measuring loop threw {@code e}: the watchdog's reason first
         * ({@code why}, may be null), then every child that exited with what it printed.
         */
        IllegalStateException failure(Throwable e, String why) throws InterruptedException {
            StringBuilder message = new StringBuilder();
            if (why != null) {
                message.append(why).append("; then: ");
            }
            message.append(e.getMessage() != null ? e.getMessage() : e.toString());
            for (Child child : children) {
                if (child.killed) {
                    child.awaitExit(STOP_MS);
                } else if (!child.process.isAlive() && !(why != null && why.startsWith("the " + child.name + " "))) {
                    int rc = child.awaitExit(STOP_MS);
                    if (rc != 0) {
                        message.append("; ").append(child.exited(rc));
                    }
                }
            }
            // The ends still up say where they stood: SIGTERM (the last started first: over ipc
            // the driver's end is the first), and each prints its counters.
            for (Child child : children.reversed()) {
                if (child.process.isAlive() && child.name.startsWith("bridge")) {
                    child.process.toHandle().destroy();
                    if (child.process.waitFor(5, TimeUnit.SECONDS) && child.awaitExit(STOP_MS) >= 0
                            && child.lines.size() >= 2) {
                        message.append("; ").append(child.name).append(" at the end: ").append(child.lastLine());
                    }
                }
            }
            return new IllegalStateException(message.toString(), e);
        }

        @Override
        public void close() {
            for (Child child : children) {
                if (child.process.isAlive()) {
                    child.process.destroyForcibly();
                }
            }
            for (Child child : children) {
                try {
                    child.process.waitFor(STOP_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                LIVE.remove(child.process);
            }
        }
    }

    /**
     * Watches a run's peers from a thread of its own while this JVM's ring end runs: the first
     * of {@code mustLive} that exits, one of {@code mayFinish} that exits with a status other than
     * 0, or (with {@code progress}) {@link #NO_PROGRESS_MS} without progress, is the reason the run
     * fails; {@code onFailure} then ends this JVM's loop (it destroys the process that loop waits on).
     */
    static final class Watchdog {
        private final Thread thread;
        private volatile String reason;
        private volatile boolean stopped;

        Watchdog(List<Child> mustLive, List<Child> mayFinish, LongSupplier progress, Runnable onFailure) {
            thread = new Thread(() -> {
                long seen = -1;
                long sinceMs = System.currentTimeMillis();
                while (!stopped) {
                    String why = null;
                    for (Child child : mustLive) {
                        if (!child.process.isAlive()) {
                            why = child.exited(child.process.exitValue(), " before the run's end");
                            break;
                        }
                    }
                    for (Child child : mayFinish) {
                        if (why == null && !child.process.isAlive() && child.process.exitValue() != 0) {
                            why = child.exited(child.process.exitValue());
                        }
                    }
                    if (why == null && progress != null) {
                        long now = progress.getAsLong();
                        if (now != seen) {
                            seen = now;
                            sinceMs = System.currentTimeMillis();
                        } else if (System.currentTimeMillis() - sinceMs > NO_PROGRESS_MS) {
                            why = "no round trip came back for " + NO_PROGRESS_MS + " ms (" + now + " done)";
                        }
                    }
                    if (why != null) {
                        reason = why;
                        onFailure.run();
                        return;
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "run-bridge-watchdog");
            thread.setDaemon(true);
            thread.start();
        }

        /** Stops watching; returns why the run failed, or null. */
        String stop() throws InterruptedException {
            stopped = true;
            thread.interrupt();
            thread.join();
            return reason;
        }
    }

    // ---- scratch folders --------------------------------------------------------------------

    private static final java.util.concurrent.atomic.AtomicInteger SCRATCH = new java.util.concurrent.atomic.AtomicInteger();

    /** The scratch folders not yet removed: removed if this JVM is stopped. */
    private static final Set<Path> SCRATCH_DIRS = ConcurrentHashMap.newKeySet();

    /** A fresh folder for one run's rings, state files and drivers (in /dev/shm where there is one). */
    private static Path scratch(int run) throws IOException {
        Path dir = Files.createDirectories(BenchCommands.scratchDir().resolve("sympathy-run-bridge-"
                + ProcessHandle.current().pid() + "-" + SCRATCH.incrementAndGet() + "-" + run));
        SCRATCH_DIRS.add(dir);
        return dir;
    }

    /** Deletes {@code dir} and everything in it (a failure to delete is only said). */
    static void deleteTree(Path dir) {
        SCRATCH_DIRS.remove(dir);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            System.err.println("run bridge: could not remove " + dir + ": " + e.getMessage());
        }
    }
}
