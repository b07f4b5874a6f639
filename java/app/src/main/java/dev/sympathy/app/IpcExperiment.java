package dev.sympathy.app;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.CatalogException;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.ParamSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.results.Stats;
import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code run ipc}: the ipc experiment of the catalog ({@code experiments/ipc.toml}) with Java as
 * the result's language, the twin of {@code sympathy run ipc}. Variants: {@code ring} (a
 * producer thread of this JVM to a consumer JVM, both on the FFM ring), {@code echo} (round trip
 * to an echo JVM), {@code ring-cross} (a Rust producer, {@code sympathy run ipc-peer producer}, to a
 * consumer thread of this JVM), {@code echo-cross-ffm} and {@code echo-cross-jni} (round trip from a
 * pinging thread of this JVM on the FFM ring, or on the Rust ring through JNI, to a Rust echo,
 * {@code sympathy run ipc-peer echo}); on the other ring kinds ({@link IpcKinds}) {@code mpsc} (Java producer
 * JVMs into one many-to-one ring, a consumer thread of this JVM), {@code mpsc-mixed} (a Rust and a Java
 * producer), {@code broadcast} (a transmitter JVM, receivers: a thread of this JVM and receiver JVMs), and
 * the reference rows {@code mpsc-agrona} and {@code broadcast-agrona} (Agrona's own classes, one JVM); their
 * peers are {@code run ipc peer ROLE} ({@link IpcPeer}). Each end is pinned to its own core, every message is
 * verified. Values come from the catalog at the preset; {@code --plan} prints, from the same
 * {@link #cases} the run measures, one line per result group without measuring.
 *
 * <p>The cross variants need the Rust binary ({@link SympathyBinary}); when it cannot be had, a
 * run of the default variants skips them with a note on stderr, and naming one in
 * {@code --variants} makes that an error.
 *
 * <pre>
 * java/sidecar run ipc --smoke --json
 * java/sidecar run ipc --plan --quick
 * java/sidecar run ipc --variants echo-cross-ffm,echo-cross-jni --runs 3
 * </pre>
 */
final class IpcExperiment {
    private IpcExperiment() {}

    /** Catalog variant names, in report order. */
    static final List<String> VARIANTS = List.of("ring", "echo", "ring-cross", "echo-cross-ffm", "echo-cross-jni",
            "mpsc", "mpsc-mixed", "mpsc-agrona", "broadcast", "broadcast-agrona");

    /**
     * One result group: a variant and every param its results carry (runner params aside).
     * {@code producer} and {@code consumer} are the languages of the two processes (of an echo:
     * the pinger's, always Java here, and the echo's; mpsc-mixed's producers: {@code rust+java}).
     * {@code peers}: the producers of a many-to-one variant, the receivers of a broadcast one, else 1.
     */
    record Case(String variant, String producer, String consumer, int sizeBytes, long capacity, String writes,
            long messages, int peers) {
        boolean throughput() {
            return !variant.startsWith("echo");
        }

        /** A many-to-one variant ({@code producers} producers). */
        boolean manyToOne() {
            return variant.startsWith("mpsc");
        }

        /** A broadcast variant ({@code receivers} receivers). */
        boolean broadcast() {
            return variant.startsWith("broadcast");
        }

        /** Whether another process is the Rust binary. */
        boolean needsRust() {
            return producer.contains("rust") || consumer.equals("rust");
        }

        /** What tells the cases of one variant apart on the human lines: {@code producers=2}, ... */
        String tag() {
            return manyToOne() ? " producers=" + peers : broadcast() ? " receivers=" + peers : "";
        }

        /** The ring implementation of this JVM's end: {@code jni} for echo-cross-jni, else {@code ffm}. */
        String ringImpl() {
            return variant.equals("echo-cross-jni") ? "jni" : "ffm";
        }

        /** The params, in the order and with the names of the Rust side's results. */
        Map<String, Object> params() {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("producer", producer);
            params.put("consumer", consumer);
            params.put("size_bytes", sizeBytes);
            params.put("capacity", capacity);
            params.put("writes", writes);
            if (writes.equals(WriteMode.BATCH.label())) {
                params.put("batch", RingImpl.ProducerEnd.BATCH); // as the Rust side's (its default --batch)
            }
            if (manyToOne()) {
                params.put("producers", peers);
            } else if (broadcast()) {
                params.put("receivers", peers);
            }
            params.put(throughput() ? "count" : "round_trips", messages);
            params.put("placement", "cross-core");
            return params;
        }

        /** The plan line ({@link PlanLine}). */
        String planJson() {
            return PlanLine.json("ipc", variant, params());
        }
    }

    /** The cases of {@code variants} at {@code preset}, from the catalog's ipc entry. */
    static List<Case> cases(ExperimentSpec ipc, List<String> variants, String preset) {
        Preset at = Preset.valueOf(preset.toUpperCase(Locale.ROOT));
        int size = Math.toIntExact(param(ipc, "size_bytes").longAt(at));
        long capacity = param(ipc, "capacity").longAt(at);
        long count = param(ipc, "count").longAt(at);
        long roundTrips = param(ipc, "round_trips").longAt(at);
        String writes = WriteMode.parse("experiments/ipc.toml writes", String.valueOf(param(ipc, "writes").at(at))).label();
        List<Case> cases = new ArrayList<>();
        for (String variant : variants) {
            switch (variant) {
                case "ring" -> cases.add(new Case(variant, "java", "java", size, capacity, writes, count, 1));
                case "echo" -> cases.add(new Case(variant, "java", "java", size, capacity, writes, roundTrips, 1));
                case "ring-cross" -> cases.add(new Case(variant, "rust", "java", size, capacity, writes, count, 1));
                case "echo-cross-ffm", "echo-cross-jni" ->
                    cases.add(new Case(variant, "java", "rust", size, capacity, writes, roundTrips, 1));
                // The other ring kinds: every message written one call at a time.
                case "mpsc", "mpsc-mixed", "mpsc-agrona" -> {
                    long own = Math.max(variantLongs(ipc, variant, "capacity", at).get(0), 8L * size);
                    for (long producers : variantLongs(ipc, variant, "producers", at)) {
                        cases.add(new Case(variant, variant.equals("mpsc-mixed") ? "rust+java" : "java", "java", size,
                                own, WriteMode.PER_MESSAGE.label(), Math.max(count, 2 * producers),
                                Math.toIntExact(producers)));
                    }
                }
                case "broadcast", "broadcast-agrona" -> {
                    long own = Math.max(variantLongs(ipc, variant, "capacity", at).get(0), 8L * size);
                    long messages = broadcastCount(count, size, own);
                    for (long receivers : variantLongs(ipc, variant, "receivers", at)) {
                        cases.add(new Case(variant, "java", "java", size, own, WriteMode.PER_MESSAGE.label(), messages,
                                Math.toIntExact(receivers)));
                    }
                }
                default -> throw new UsageException("run ipc: unknown variant '" + variant + "' (choose from "
                        + String.join(", ", VARIANTS) + ")");
            }
        }
        return cases;
    }

    /**
     * Messages per broadcast run: {@code count}, capped so that the whole run fits in half the
     * ring (the transmitter never waits: only a ring that holds the run keeps every receiver from
     * being lapped), as the Rust side's {@code broadcast_count}.
     */
    static long broadcastCount(long count, int size, long capacity) {
        long record = (size + 8 + 7) / 8 * 8;
        long fits = capacity / 2 / record;
        if (fits < 2) {
            throw new UsageException("run ipc: a broadcast run must fit in half the ring: " + capacity + " bytes hold "
                    + fits + " messages of " + size + " bytes");
        }
        return Math.min(count, fits);
    }

    /**
     * The whole numbers param {@code name} takes for {@code variant} at {@code preset}: the
     * variant's own value ({@code params = { capacity = .. }}), else the experiment's (one or a list).
     */
    private static List<Long> variantLongs(ExperimentSpec ipc, String variant, String name, Preset at) {
        Object fixed = ipc.variant(variant).map(v -> v.params().get(name)).orElse(null);
        List<?> values = fixed == null ? param(ipc, name).valuesAt(at)
                : fixed instanceof List<?> list ? list : List.of(fixed);
        List<Long> longs = new ArrayList<>();
        for (Object value : values) {
            if (!(value instanceof Number n) || n.longValue() < 1) {
                throw new CatalogException("experiments/ipc.toml: `" + name + "` of " + variant + " is not a whole number"
                        + " >= 1: " + value);
            }
            longs.add(n.longValue());
        }
        return longs;
    }

    /** The repository: the parent of the catalog folder the launcher names. */
    static Path repositoryRoot() {
        return Path.of(System.getProperty(Catalog.PROPERTY)).toAbsolutePath().normalize().getParent();
    }

    /** The ipc param called {@code name}; the catalog entry must have it. */
    private static ParamSpec param(ExperimentSpec ipc, String name) {
        return ipc.param(name).orElseThrow(() -> new CatalogException("experiments/ipc.toml has no param `" + name
                + "`"));
    }

    /** {@code run ipc [--smoke|--quick|--full] [--json] [--plan] [--variants V,..] [--runs R] [--cores P,C]}. */
    static void run(String[] argv) throws IOException, InterruptedException {
        if (argv.length >= 3 && argv[1].equals("ipc") && argv[2].equals("peer")) {
            IpcPeer.run(argv); // a peer of a run (the mpsc and broadcast variants'), as `sympathy run ipc-peer`
            return;
        }
        if (argv.length < 2 || !argv[1].equals("ipc")) {
            final String name = argv.length < 2 ? "" : argv[1];
            throw new UsageException("run " + name + ": neither the JMH runner (java/jmh/run list) nor the sidecar runs"
                    + " it; an experiment with Java variants needs its Java side (docs/adding-an-experiment.md)");
        }
        Args args = new Args("run ipc", argv, 2, Set.of("variants", "runs", "cores"),
                Set.of("smoke", "quick", "full", "json", "plan"));
        args.expectPositional(0);
        String preset = preset("run ipc", args);
        boolean named = args.flag("variants");
        List<String> variants = named ? Arrays.stream(args.string("variants", "").split(",")).map(String::trim).toList()
                : VARIANTS;
        List<Case> cases = cases(Catalog.fromProperty().experiment("ipc"), variants, preset);
        if (args.flag("plan")) {
            cases.forEach(c -> System.out.println(c.planJson()));
            return;
        }
        int runs = (int) args.longOption("runs", 1, 1000, switch (preset) {
            case "smoke" -> 1;
            case "quick" -> 3;
            case "full" -> 10;
            default -> 5;
        });
        Cores cores = Cores.parse("run ipc", args.string("cores", "")).checked("run ipc");
        Path sympathy = null;
        if (cases.stream().anyMatch(Case::needsRust)) {
            try {
                sympathy = SympathyBinary.find(repositoryRoot());
            } catch (SympathyBinary.Unavailable e) {
                String cross = String.join(", ", cases.stream().filter(Case::needsRust).map(Case::variant).toList());
                if (named) {
                    throw new IllegalStateException(cross + " need the Rust side: " + e.getMessage(), e);
                }
                System.err.println("note: ipc " + cross + " skipped: the Rust side is unavailable: " + e.getMessage());
                cases = cases.stream().filter(c -> !c.needsRust()).toList();
            }
        }
        Output out = new Output(args.flag("json"));
        for (Case c : cases) {
            measure(c, runs, cores, preset, sympathy, out);
        }
    }

    /** The preset {@code --smoke}, {@code --quick} or {@code --full} names, else {@code default} (also run messaging's). */
    static String preset(String command, Args args) {
        int chosen = (args.flag("smoke") ? 1 : 0) + (args.flag("quick") ? 1 : 0) + (args.flag("full") ? 1 : 0);
        if (chosen > 1) {
            throw new UsageException(command + ": choose one of --smoke, --quick, --full");
        }
        return args.flag("smoke") ? "smoke" : args.flag("quick") ? "quick" : args.flag("full") ? "full" : "default";
    }

    /** Runs one case {@code runs} times and reports it with the runner params cores, preset, pinning, jvm_args. */
    private static void measure(Case c, int runs, Cores cores, String preset, Path sympathy, Output out)
            throws IOException, InterruptedException {
        Path dir = BenchCommands.scratchDir();
        RingImpl ffm = Impls.byName("run ipc", "ffm");
        Map<String, Object> params = c.params();
        params.put("cores", cores.label());
        params.put("preset", preset);
        params.put("pinning", "pinned");
        params.put("jvm_args", String.join(" ", ChildJvm.jvmArgs()));
        if (c.throughput()) {
            double[] msgs = new double[runs];
            if (c.variant().equals("mpsc-agrona")) {
                IpcKinds.agronaManyToOne(c, cores, true); // one JVM: its first run compiles the loops
            } else if (c.variant().equals("broadcast-agrona")) {
                IpcKinds.agronaBroadcast(c, cores, true);
            }
            for (int run = 0; run < runs; run++) {
                Path file = dir.resolve("sympathy-run-ipc-" + ProcessHandle.current().pid() + "-" + run + ".ring");
                IpcKinds.Rate rate = switch (c.variant()) {
                    case "mpsc", "mpsc-mixed" -> IpcKinds.manyToOne(c, cores, sympathy, file);
                    case "mpsc-agrona" -> IpcKinds.agronaManyToOne(c, cores, false);
                    case "broadcast" -> IpcKinds.broadcast(c, cores, sympathy, file);
                    case "broadcast-agrona" -> IpcKinds.agronaBroadcast(c, cores, false);
                    default -> new IpcKinds.Rate(c.producer().equals("java")
                            ? BenchCommands.oneBench(file, ffm, ffm, c.sizeBytes(), c.messages(), c.capacity(), cores,
                                    WriteMode.parse("run ipc", c.writes()), RingImpl.ProducerEnd.BATCH)
                            : fromRust(sympathy, file, c, cores), "");
                };
                msgs[run] = rate.value();
                out.line(String.format("%d - %s%s: msgs/s=%s%s", run, c.variant(), c.tag(), Output.human(msgs[run]),
                        rate.note()));
            }
            double[] bytes = Arrays.stream(msgs).map(m -> m * c.sizeBytes()).toArray();
            out.result("ipc", c.variant(), params, "msgs_per_sec", "msgs/s", Stats.of(msgs));
            out.result("ipc", c.variant(), params, "bytes_per_sec", "bytes/s", Stats.of(bytes));
            return;
        }
        String[] names = {"rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"};
        double[][] samples = new double[names.length][runs];
        RingImpl pinger = Impls.byName("run ipc", c.ringImpl());
        BenchCommands.EchoPeer echo = c.needsRust() ? rustEcho(sympathy) : BenchCommands.jvmEcho(pinger);
        for (int run = 0; run < runs; run++) {
            long[] values = BenchCommands.oneEcho(dir, pinger, echo, c.sizeBytes(),
                    EchoLoop.warmup(c.messages(), c.capacity(), c.sizeBytes()), c.messages(), c.capacity(), cores);
            for (int m = 0; m < names.length; m++) {
                samples[m][run] = values[m];
            }
            out.line(String.format("%d - %s: rtt p50=%dns p99=%dns p99.9=%dns max=%dns", run, c.variant(), values[0],
                    values[1], values[2], values[3]));
        }
        for (int m = 0; m < names.length; m++) {
            out.result("ipc", c.variant(), params, names[m], "ns", Stats.of(samples[m]));
        }
    }

    /** The Rust echo: {@code sympathy run ipc-peer echo PING PONG --count N --core C}. */
    private static BenchCommands.EchoPeer rustEcho(Path sympathy) {
        return (ping, pong, count, core) -> new ProcessBuilder(List.of(sympathy.toString(), "run", "ipc-peer", "echo",
                ping.toString(), pong.toString(), "--count", Long.toString(count), "--core", Integer.toString(core)))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    /**
     * One ring-cross run: Rust's ipc producer process ({@code sympathy run ipc-peer producer}, the
     * one Rust's own ring row starts, pinned to the producer core) writes into a fresh ring that a
     * thread of this JVM, pinned to the consumer core, reads and verifies; returns messages per
     * second, first message to last.
     */
    private static double fromRust(Path sympathy, Path file, Case c, Cores cores)
            throws IOException, InterruptedException {
        try (RingFile ring = RingFile.create(file, c.capacity())) {
            SizeSpec.parse("run ipc", Integer.toString(c.sizeBytes()), 1).checkFits("run ipc", ring.maxMessageLength());
            // This JVM's consume loop compiled before the Rust producer (compiled ahead of time) starts.
            Cores.onPinnedThread("run ipc", "consumer", cores.consumer(), () -> {
                Warmup.run(Impls.byName("run ipc", "ffm"), Integer.toString(c.sizeBytes()), Warmup.DEFAULT_MESSAGES,
                        WriteMode.PER_MESSAGE);
                return null;
            });
            // The producer process of Rust's own ring row (`sympathy run ipc`), so that the two rows
            // differ only in the consumer: it publishes up to RingImpl.ProducerEnd.BATCH messages at
            // once. `sympathy ring produce` publishes each message alone, which keeps the consumer on
            // the producer's newest line and made this row 3-4x slower than Rust's.
            Process producer = SympathyBinary.startPeer(sympathy, List.of("producer", file.toString(), "--count",
                    Long.toString(c.messages()), "--size", Integer.toString(c.sizeBytes()), "--core",
                    Integer.toString(cores.producer()), "--writes", c.writes(), "--batch",
                    Integer.toString(RingImpl.ProducerEnd.BATCH)));
            ConsumeLoop loop = new ConsumeLoop();
            loop.count = c.messages();
            loop.timeoutMs = 30_000;
            MessageCheck check;
            try {
                check = Cores.onPinnedThread("run ipc", "consumer", cores.consumer(),
                        () -> loop.run(ring, Impls.byName("run ipc", "ffm")));
            } catch (RuntimeException | Error e) {
                producer.destroy();
                throw e;
            }
            ChildJvm.finish(producer, "Rust producer");
            if (check.bytes() != c.messages() * c.sizeBytes()) {
                throw new IllegalStateException("verified " + check.bytes() + " bytes, expected "
                        + c.messages() * c.sizeBytes());
            }
            return c.messages() / (Math.max(loop.elapsedNanos, 1) / 1e9);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
