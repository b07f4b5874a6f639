package dev.sympathy.app;

import dev.sympathy.results.Stats;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code create}, {@code produce}, {@code consume}, {@code inspect} and the hidden {@code echo}. */
final class RingCommands {
    private RingCommands() {}

    static void create(String[] argv) throws IOException {
        Args args = new Args("create", argv, 1, Set.of("capacity", "kind"), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the ring file to create)"));
        args.expectPositional(1);
        long capacity = args.requiredLong("capacity", 1, Long.MAX_VALUE / 2);
        RingKind kind = kindOption(args);
        try (RingFile ring = RingFile.create(path, capacity, kind)) {
            System.out.println("created " + path + " (capacity " + ring.capacity() + " bytes, max message "
                    + ring.maxMessageLength() + " bytes, file " + kind.fileLength(capacity) + " bytes, kind "
                    + kind.cliName() + ")");
        }
    }

    /** {@code --kind spsc|mpsc|broadcast} (default spsc). */
    private static RingKind kindOption(Args args) {
        try {
            return RingKind.ofCliName(args.string("kind", "spsc"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(args.command() + ": --kind: " + e.getMessage());
        }
    }

    /**
     * Refuses the options of {@code names} that were given: they belong to another kind of ring
     * than {@code ring}'s.
     */
    private static void refuseOptions(Args args, RingFile ring, String... names) {
        for (String name : names) {
            if (args.flag(name)) {
                throw new UsageException(args.command() + ": --" + name + " does not apply to a " + ring.kind().cliName()
                        + " ring (" + ring.path() + ")");
            }
        }
    }

    static void produce(String[] argv) throws IOException {
        Args args = new Args("produce", argv, 1, Set.of("count", "size", "type", "seed", "impl", "timeout-ms",
                "stale-ms", "halt-after", "halt-in-claim-after", "first", "seconds", "wait", "core", "warmup", "writes",
                "batch"),
                Set.of("claim"));
        Path path = Path.of(args.positional(0, "PATH (the ring file)"));
        args.expectPositional(1);
        ProduceLoop loop = new ProduceLoop();
        loop.durationMs = 1000 * args.longOption("seconds", 0, Long.MAX_VALUE / 1000, 0);
        loop.count = loop.durationMs != 0 && !args.flag("count") ? Long.MAX_VALUE
                : args.requiredLong("count", 0, Long.MAX_VALUE);
        if (!argsHas(args, "size")) {
            throw new UsageException("produce: --size is required (S or MIN..MAX bytes, at least 4)");
        }
        SizeSpec sizes = SizeSpec.parse("produce", args.string("size", ""), args.longOption("seed", 0, Long.MAX_VALUE, 1));
        loop.typeId = (int) args.longOption("type", 1, Integer.MAX_VALUE, 1);
        loop.timeoutMs = args.longOption("timeout-ms", 1, Long.MAX_VALUE, 10_000);
        loop.staleMs = args.longOption("stale-ms", 1, Long.MAX_VALUE, 5_000);
        loop.haltAfter = args.longOption("halt-after", 0, Long.MAX_VALUE, 0);
        loop.haltInClaimAfter = args.longOption("halt-in-claim-after", 0, Long.MAX_VALUE, 0);
        loop.first = args.longOption("first", 0, Long.MAX_VALUE, 0);
        loop.claim = args.flag("claim");
        loop.writes = WriteMode.of(args);
        loop.batch = WriteMode.batchOf(args, loop.writes);
        if (loop.writes == WriteMode.BATCH && (sizes.min != sizes.max || loop.claim || loop.haltInClaimAfter != 0)) {
            throw new UsageException("produce: --writes batch fills runs of one message size in place: give one --size"
                    + " and no --claim or --halt-in-claim-after");
        }
        RingImpl impl = Impls.byName("produce", args.string("impl", "ffm"));
        loop.futexWait = futexWait(args, "produce", impl);
        pinIfAsked(args, "produce");
        Warmup.run(impl, args.string("size", ""), warmupMessages(args), loop.writes);
        try (RingFile ring = RingFile.openAnyKind(path, Duration.ofMillis(loop.timeoutMs))) {
            sizes.checkFits("produce", ring.maxMessageLength());
            if (ring.kind() != RingKind.ONE_TO_ONE) {
                produceOtherKind(args, ring, loop, sizes);
                return;
            }
            long bytes = loop.run(ring, impl, sizes);
            System.out.println("produced " + loop.written + " messages (" + bytes + " bytes, sizes " + sizes
                    + ") with " + impl.label() + (loop.claim ? " (claims)" : "")
                    + (loop.writes == WriteMode.BATCH ? " (runs of " + loop.batch + ")" : ""));
        }
    }

    /**
     * {@code produce} on a many-to-one ring (a producer among any number) or a broadcast ring
     * (the transmitter, never waiting), with the options those take.
     */
    private static void produceOtherKind(Args args, RingFile ring, ProduceLoop options, SizeSpec sizes) {
        refuseOptions(args, ring, "impl", "seconds", "wait", "core", "warmup", "writes", "batch");
        if (ring.kind() == RingKind.BROADCAST) {
            refuseOptions(args, ring, "claim", "halt-in-claim-after");
        }
        KindProduceLoop loop = new KindProduceLoop();
        loop.count = options.count;
        loop.typeId = options.typeId;
        loop.first = options.first;
        loop.timeoutMs = options.timeoutMs;
        loop.staleMs = options.staleMs;
        loop.claim = options.claim;
        loop.haltAfter = options.haltAfter;
        loop.haltInClaimAfter = options.haltInClaimAfter;
        long bytes = loop.run(ring, sizes);
        System.out.println("produced " + loop.written + " messages (" + bytes + " bytes, sizes " + sizes + ", type "
                + loop.typeId + ")");
    }

    /** The sizes a consumer warms up on (it is not told the producer's): both branches of the check. */
    private static final String WARMUP_CONSUME_SIZES = "4..16";

    /**
     * {@code --warmup N}: messages to run through this JVM's own loops on a scratch ring before
     * attaching ({@link Warmup}); by default {@link Warmup#DEFAULT_MESSAGES} for a pinned
     * ({@code --core}: measured) run, else none.
     */
    private static long warmupMessages(Args args) {
        return args.longOption("warmup", 0, Long.MAX_VALUE, argsHas(args, "core") ? Warmup.DEFAULT_MESSAGES : 0);
    }

    static void consume(String[] argv) throws IOException {
        Args args = new Args("consume", argv, 1, Set.of("count", "first", "type", "impl", "timeout-ms", "stale-ms",
                "producer", "core", "wait", "warmup", "producers", "unblock-after-ms"),
                Set.of("report-elapsed", "json", "until-detached", "no-laps", "producer-restarts"));
        Path path = Path.of(args.positional(0, "PATH (the ring file)"));
        args.expectPositional(1);
        ConsumeLoop loop = new ConsumeLoop();
        loop.untilDetached = args.flag("until-detached");
        loop.producerRestarts = args.flag("producer-restarts");
        loop.count = loop.untilDetached && !args.flag("count") ? Long.MAX_VALUE
                : args.requiredLong("count", 0, Long.MAX_VALUE);
        loop.expectedType = (int) args.longOption("type", 1, Integer.MAX_VALUE, 0);
        loop.first = firstIndex(args.string("first", "0"));
        loop.timeoutMs = args.longOption("timeout-ms", 1, Long.MAX_VALUE, 10_000);
        loop.staleMs = args.longOption("stale-ms", 1, Long.MAX_VALUE, 5_000);
        RingImpl impl = Impls.byName("consume", args.string("impl", "ffm"));
        loop.futexWait = futexWait(args, "consume", impl);
        boolean json = args.flag("json");
        if (json && loop.count < 2) {
            throw new UsageException("consume: --json times the first message to the last: use --count 2 or more");
        }
        pinIfAsked(args, "consume");
        Warmup.run(impl, WARMUP_CONSUME_SIZES, warmupMessages(args), WriteMode.PER_MESSAGE);
        try (RingFile ring = RingFile.openAnyKind(path, Duration.ofMillis(loop.timeoutMs))) {
            if (ring.kind() != RingKind.ONE_TO_ONE) {
                consumeOtherKind(args, path, ring, loop);
                return;
            }
            refuseOptions(args, ring, "producers", "unblock-after-ms", "no-laps");
            MessageCheck check = loop.run(ring, impl);
            if (json) {
                reportThroughput(args.string("producer", "unknown"), impl, ring, loop, check);
            } else if (args.flag("report-elapsed")) {
                System.out.println("elapsed_ns=" + loop.elapsedNanos);
                System.out.println("bytes=" + check.bytes());
            } else {
                System.out.println("consumed " + check.received() + " messages (" + check.bytes()
                        + " bytes) with " + impl.label() + ", every byte verified");
            }
        }
    }

    /**
     * {@code consume} on a many-to-one ring ({@code --producers P}: P streams, one per type;
     * {@code --unblock-after-ms}) or a broadcast ring (a copy receiver; {@code --no-laps}).
     */
    private static void consumeOtherKind(Args args, Path path, RingFile ring, ConsumeLoop options) {
        refuseOptions(args, ring, "impl", "type", "producer", "core", "wait", "warmup", "json", "report-elapsed",
                "until-detached", "producer-restarts");
        if (ring.kind() == RingKind.BROADCAST) {
            refuseOptions(args, ring, "producers", "unblock-after-ms");
            if (options.first == MessageCheck.FIRST_FROM_MESSAGE) {
                throw new UsageException("consume: --first auto is for one-to-one rings: a broadcast receiver reads each"
                        + " message's index from it anyway");
            }
            BroadcastReceiveLoop loop = new BroadcastReceiveLoop();
            loop.count = options.count;
            loop.first = options.first;
            loop.timeoutMs = options.timeoutMs;
            loop.staleMs = options.staleMs;
            loop.noLaps = args.flag("no-laps");
            loop.run(path, ring);
            System.out.println("received and verified " + loop.received() + " messages (" + loop.bytes() + " bytes), lapped "
                    + loop.laps() + " times, " + loop.lost() + " messages lost to laps");
            return;
        }
        refuseOptions(args, ring, "no-laps");
        if (options.first == MessageCheck.FIRST_FROM_MESSAGE) {
            throw new UsageException("consume: --first auto is for one-to-one rings: give each stream's first index");
        }
        ManyToOneConsumeLoop loop = new ManyToOneConsumeLoop();
        loop.count = options.count;
        loop.first = options.first;
        loop.timeoutMs = options.timeoutMs;
        loop.producers = (int) args.longOption("producers", 1, 1 << 20, 1);
        loop.unblockAfterMs = args.longOption("unblock-after-ms", 0, Long.MAX_VALUE / 1_000_000, 1_000);
        loop.run(ring);
        System.out.println("consumed and verified " + loop.received() + " messages (" + loop.bytes() + " bytes)");
        if (loop.producers > 1) {
            StringBuilder line = new StringBuilder("per producer: ");
            for (int t = 1; t <= loop.producers; t++) {
                line.append(t == 1 ? "" : ", ").append("type ").append(t).append(" = ").append(loop.receivedOf(t));
            }
            System.out.println(line);
        }
        if (loop.unblocked > 0) {
            System.out.println("unblocked " + loop.unblocked + " stalled claims");
        }
    }

    /**
     * {@code consume --json}: the results line of the Rust {@code ring consume --json}, from this
     * side: experiment {@code ipc}, variant {@code ring}, msgs_per_sec and bytes_per_sec from the
     * first message to the last (one run), params producer (as given), consumer, size_bytes
     * (the mean), count, capacity and placement.
     */
    private static void reportThroughput(String producer, RingImpl impl, RingFile ring, ConsumeLoop loop,
            MessageCheck check) {
        double seconds = Math.max(loop.elapsedNanos, 1) / 1e9;
        double msgsPerSec = (check.received() - 1) / seconds;
        long meanSize = check.bytes() / check.received();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("producer", producer);
        params.put("consumer", impl.label());
        params.put("size_bytes", meanSize);
        params.put("count", check.received());
        params.put("capacity", (long) ring.capacity());
        params.put("placement", "processes");
        Output out = new Output(true);
        out.result("ipc", "ring", params, "msgs_per_sec", "msgs/s", Stats.of(new double[] {msgsPerSec}));
        out.result("ipc", "ring", params, "bytes_per_sec", "bytes/s",
                Stats.of(new double[] {msgsPerSec * meanSize}));
    }

    static void inspect(String[] argv) throws IOException {
        Args args = new Args("inspect", argv, 1, Set.of("timeout-ms"), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the ring file)"));
        args.expectPositional(1);
        long timeoutMs = args.longOption("timeout-ms", 1, Long.MAX_VALUE, 1_000);
        // Read-only: needs only read permission, never attaches or writes, and shows impossible
        // positions instead of refusing the file.
        try (RingFile ring = RingFile.openReadOnly(path, Duration.ofMillis(timeoutMs))) {
            long tail = ring.tailPosition();
            long head = ring.headPosition();
            System.out.println("path=" + path);
            System.out.println("layout_version=" + ring.layoutVersion());
            System.out.println("kind                " + ring.kind().cliName());
            System.out.println("capacity=" + ring.capacity());
            System.out.println("max_message_length=" + ring.maxMessageLength());
            System.out.println("creation_time_ms=" + ring.creationTimeMs());
            System.out.println("producer_pid=" + ring.producerPid() + " (" + ring.producerState(5_000).name().toLowerCase() + ")");
            System.out.println("producer_heartbeat_ms=" + ring.producerHeartbeatMs());
            System.out.println("producer_detached_ms=" + ring.producerDetachedMs());
            System.out.println("consumer_pid=" + ring.consumerPid() + " (" + ring.consumerState(5_000).name().toLowerCase() + ")");
            System.out.println("consumer_heartbeat_ms=" + ring.consumerHeartbeatMs());
            System.out.println("consumer_detached_ms=" + ring.consumerDetachedMs());
            if (ring.kind() == RingKind.BROADCAST) {
                System.out.println("trailer             tail_intent " + ring.broadcastTailIntent() + " tail " + tail
                        + " latest " + ring.broadcastLatest());
            } else {
                System.out.println("tail=" + tail);
                System.out.println("head=" + head);
            }
            try {
                ring.checkPositions();
                if (ring.kind() != RingKind.BROADCAST) {
                    System.out.println("used_bytes=" + (tail - head));
                }
            } catch (dev.sympathy.ring.CorruptRecordException e) {
                System.out.println("positions=INVALID: " + e.getMessage());
            }
        }
    }

    /** Hidden: the echo side of {@code latency}: copies N messages from PING to PONG. */
    static void echo(String[] argv) throws IOException {
        Args args = new Args("echo", argv, 1, Set.of("count", "impl", "timeout-ms", "core"), Set.of());
        Path ping = Path.of(args.positional(0, "PING ring"));
        Path pong = Path.of(args.positional(1, "PONG ring"));
        long count = args.requiredLong("count", 0, Long.MAX_VALUE);
        long timeoutMs = args.longOption("timeout-ms", 1, Long.MAX_VALUE, 10_000);
        RingImpl impl = Impls.byName("echo", args.string("impl", "ffm"));
        pinIfAsked(args, "echo");
        try (RingFile in = RingFile.open(ping, Duration.ofMillis(timeoutMs));
                RingFile out = RingFile.open(pong, Duration.ofMillis(timeoutMs));
                RingImpl.ConsumerEnd consumer = impl.consumer(in, new MessageCheck(0));
                RingImpl.ProducerEnd producer = impl.producer(out)) {
            long echoed = 0;
            long idle = 0;
            Heartbeat beat = new Heartbeat(() -> {
                consumer.heartbeat();
                producer.heartbeat();
            });
            dev.sympathy.ring.PeerWatch pingerWatch = in.watchProducer();
            while (echoed < count) {
                int n = consumer.echo(producer, (int) Math.min(count - echoed, 1 << 16));
                echoed += n;
                beat.tick();
                if (n == 0 && (++idle & 0xFFFFF) == 0) {
                    // A stalled pinger (stale) may resume: only one that has left ends the echo.
                    dev.sympathy.ring.PeerState pinger = pingerWatch.look(5_000);
                    if (pingerWatch.hasLeft(pinger)) {
                        throw new ConsumeLoop.Incomplete("echo: the pinging process (pid " + in.producerPid() + ", heartbeat "
                                + (System.currentTimeMillis() - in.producerHeartbeatMs()) + " ms ago) has "
                                + (pinger == dev.sympathy.ring.PeerState.DEAD ? "died" : "detached") + " after " + echoed
                                + " messages");
                    }
                }
            }
        }
    }

    /** {@code consume --first I|auto}: a message index, or auto (the first message says its own). */
    private static long firstIndex(String text) {
        if (text.equals("auto")) {
            return MessageCheck.FIRST_FROM_MESSAGE;
        }
        try {
            long first = Long.parseLong(text);
            if (first >= 0) {
                return first;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new UsageException("consume: --first expects a message index (0 or more) or 'auto', got '" + text + "'");
    }

    /** {@code --wait spin} (the default: lowest latency, a core busy) or {@code --wait futex} (ffm only). */
    private static boolean futexWait(Args args, String command, RingImpl impl) {
        String wait = args.string("wait", "spin");
        if (wait.equals("spin")) {
            return false;
        }
        if (!wait.equals("futex")) {
            throw new UsageException(command + ": --wait is spin or futex, not '" + wait + "'");
        }
        if (!impl.name().equals("ffm")) {
            throw new UsageException(command + ": --wait futex needs --impl ffm (the futex wait is the FFM ring's)");
        }
        return true;
    }

    /** {@code --core C}: pins this (the only working) thread, as bench, latency and run ipc ask of their peer. */
    private static void pinIfAsked(Args args, String command) {
        if (args.flag("core")) {
            Cores.pin(command, (int) args.longOption("core", 0, Integer.MAX_VALUE, 0));
        }
    }

    private static boolean argsHas(Args args, String name) {
        return !args.string(name, "").isEmpty();
    }
}
