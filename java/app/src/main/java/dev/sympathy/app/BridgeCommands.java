package dev.sympathy.app;

import dev.sympathy.bridge.AeronReference;
import dev.sympathy.bridge.BridgeDuplex;
import dev.sympathy.bridge.BridgeEnd;
import dev.sympathy.bridge.BridgeReceiver;
import dev.sympathy.bridge.BridgeRunner;
import dev.sympathy.bridge.BridgeSender;
import dev.sympathy.bridge.BridgeSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code sidecar bridge send|receive RING ...}: one end of the bridge that moves a ring's
 * messages to another host over Aeron (docs/bridge.md); {@code sympathy bridge} runs these.
 */
final class BridgeCommands {
    private BridgeCommands() {}

    static final String USAGE = """
              bridge send RING --channel C --confirm-channel K   drain a local ring into an Aeron publication;
                                                           records are released once the receiver confirms them
              bridge receive RING --channel C --confirm-channel K  write what arrives into a local ring, confirm it
              bridge duplex --send RING --receive RING2 --channel C --confirm-channel K
                      --in-channel C2 --in-confirm-channel K2  both directions on one driver and thread:
                                            RING out over C (K), what arrives on C2 into RING2 (confirmed on K2)
                      [--in-stream N] [--in-confirm-stream N]  the incoming direction's streams (1003, 1004)
                      C, K: Aeron channels, e.g. aeron:udp?endpoint=10.0.0.2:40123 (the receiver's address),
                            aeron:udp?endpoint=10.0.0.1:40124 (the sender's), aeron:udp?endpoint=224.0.1.1:40456
                            (multicast), aeron:ipc (one driver: the receiver with --external-driver)
                      [--stream N] [--confirm-stream N]   stream ids (1001, 1002)
                      [--threading invoker|shared|dedicated]  invoker (default): driver, client and bridge on
                                            one thread; shared/dedicated: the driver's own 1 or 3 threads
                      [--idle spin|backoff|yield]  busy-spin; back off to 1 ms parks when idle (default);
                                            or yield the core on every idle turn
                      [--term-length B]     publication term (4m; largest message term/8)
                      [--mtu B] [--window B]  datagram (1408) and receiver window (128k)
                      [--aeron-dir D] [--external-driver]  the driver's folder; use a running driver there
                      [--link-timeout-ms M] how long a silent link stays up (2000)
                      [--loss-rate R] [--loss-seed S]  drop R (0..1) of the data datagrams this end receives
                                            (Aeron's debug loss generator: a test of recovery)
                      [--stats-every-ms M]  print the end's counters every M ms (and at exit)
                      runs until SIGTERM or SIGINT, then detaches from the ring
              bridge aeron-sub|aeron-pub|aeron-pong|aeron-ping ...  Aeron alone, the bridge's frames without its
                      rings (the reference peers of `run bridge`): --channel C [--stream N] --count N --size S
                      [--reply-channel R --reply-stream N (pong, ping)] [--warmup W (ping)] [--linger-ms M]
                      [--timeout-ms M] and the engine options above; sub prints elapsed_ns=, ping rtt_*_ns=""";

    /**
     * The Aeron reference peers of {@code run bridge} (experiments/bridge.toml's {@code aeron} and
     * {@code aeron-echo} rows; {@link AeronReference}): each prints one line once up, then runs
     * its part and exits 0.
     *
     * <pre>
     * bridge aeron-sub --channel C [--stream N] --count N --size S     polls and checks N frames,
     *                                                                   prints elapsed_ns= (first to last)
     * bridge aeron-pub --channel C [--stream N] --count N --size S     offers N frames (tryClaim), lingers
     * bridge aeron-pong --channel IN --reply-channel OUT [--stream N --reply-stream N] --count N --size S
     * bridge aeron-ping --channel IN --reply-channel OUT [...] --count N --size S [--warmup W]
     *                                                                   prints rtt_p50_ns= .. rtt_max_ns=
     *   [--aeron-dir D [--external-driver]] [--timeout-ms M (30000)] [--linger-ms M (1000: pub, pong)]
     *   and the bridge's engine options (--threading, --idle, --term-length, --mtu, --window, --link-timeout-ms)
     * </pre>
     */
    static final List<String> AERON_VERBS = List.of("aeron-sub", "aeron-pub", "aeron-pong", "aeron-ping");

    private static void aeron(String role, String[] argv) {
        boolean echo = role.equals("aeron-pong") || role.equals("aeron-ping");
        Set<String> valued = new java.util.HashSet<>(Set.of("channel", "stream", "count", "size", "timeout-ms",
                "threading", "idle", "term-length", "mtu", "window", "aeron-dir", "link-timeout-ms"));
        if (echo) {
            valued.addAll(Set.of("reply-channel", "reply-stream"));
        }
        if (role.equals("aeron-pub") || role.equals("aeron-pong")) {
            valued.add("linger-ms");
        }
        if (role.equals("aeron-ping")) {
            valued.add("warmup");
        }
        Args args = new Args("bridge " + role, argv, 2, valued, Set.of("external-driver"));
        args.expectPositional(0);
        BridgeSettings s = new BridgeSettings();
        s.channel = channel(args, "channel");
        s.stream = (int) args.longOption("stream", Integer.MIN_VALUE, Integer.MAX_VALUE, s.stream);
        if (echo) {
            s.confirmChannel = channel(args, "reply-channel");
            s.confirmStream = (int) args.longOption("reply-stream", Integer.MIN_VALUE, Integer.MAX_VALUE,
                    s.confirmStream);
            if (s.channel.equals(s.confirmChannel) && s.stream == s.confirmStream) {
                throw new UsageException(args.command() + ": the frames and the replies share " + s.channel + " stream "
                        + s.stream + ": give --reply-stream another id or --reply-channel another address");
            }
        }
        engine(args, s);
        long count = args.requiredLong("count", 1, Integer.MAX_VALUE);
        int size = (int) args.requiredLong("size", AeronReference.MIN_SIZE, s.mtu);
        long timeoutMs = args.longOption("timeout-ms", 1, Long.MAX_VALUE, 30_000);
        long lingerMs = args.longOption("linger-ms", 0, 600_000, 1_000);
        org.agrona.concurrent.IdleStrategy idle = AeronReference.idleStrategy(s.idle);
        String up = role + ": " + s.channel + " stream " + s.stream
                + (echo ? ", replies " + s.confirmChannel + " stream " + s.confirmStream : "") + " (threading "
                + s.threading.name().toLowerCase(Locale.ROOT) + ", " + count + " frames of " + size + " + "
                + dev.sympathy.bridge.BridgeFrames.DATA_HEADER_LENGTH + " bytes)";
        switch (role) {
            case "aeron-sub" -> {
                try (AeronReference.Subscriber sub = AeronReference.Subscriber.open(s, size)) {
                    ready(up);
                    long nanos = sub.receive(count, timeoutMs, idle);
                    System.out.println("frames=" + sub.received());
                    System.out.println("elapsed_ns=" + nanos);
                }
            }
            case "aeron-pub" -> {
                try (AeronReference.Publisher pub = AeronReference.Publisher.open(s, size)) {
                    ready(up);
                    pub.send(count, timeoutMs, idle);
                    pub.linger(lingerMs, idle);
                    System.out.println("sent " + pub.sent() + " frames, back-pressured " + pub.backPressured()
                            + " times");
                }
            }
            case "aeron-pong" -> {
                try (AeronReference.Pong pong = AeronReference.Pong.open(s, size)) {
                    ready(up);
                    pong.echo(count, timeoutMs, idle);
                    pong.linger(lingerMs, idle);
                    System.out.println("echoed " + pong.echoed() + " frames");
                }
            }
            default -> {
                long warmup = args.longOption("warmup", 0, Integer.MAX_VALUE, Math.max(count / 10, 2_000));
                try (AeronReference.Pinger ping = AeronReference.Pinger.open(s, size)) {
                    ready(up);
                    long[] rtt = new long[Math.toIntExact(count)];
                    ping.run(warmup, rtt, timeoutMs, idle);
                    long[] p = BridgeExperiment.percentiles(rtt);
                    System.out.println("round_trips=" + count + " warmup=" + warmup);
                    System.out.println("rtt_p50_ns=" + p[0]);
                    System.out.println("rtt_p99_ns=" + p[1]);
                    System.out.println("rtt_p999_ns=" + p[2]);
                    System.out.println("rtt_max_ns=" + p[3]);
                }
            }
        }
        System.out.flush();
    }

    /** The line a peer prints once up (what {@code run bridge} waits for). */
    private static void ready(String line) {
        System.out.println(line);
        System.out.flush();
    }

    static void run(String[] argv) throws IOException {
        String role = argv.length > 1 ? argv[1] : "";
        if (AERON_VERBS.contains(role)) {
            aeron(role, argv);
            return;
        }
        if (!Set.of("send", "receive", "duplex").contains(role)) {
            throw new UsageException("bridge: expected `bridge send RING ...`, `bridge receive RING ...` or"
                    + " `bridge duplex --send RING --receive RING ...` (or an Aeron reference peer: "
                    + String.join(", ", AERON_VERBS) + ")" + (role.isEmpty() ? "" : ", got '" + role + "'"));
        }
        Set<String> valued = new java.util.HashSet<>(ENGINE_OPTIONS);
        if (role.equals("duplex")) {
            valued.addAll(Set.of("send", "receive", "in-channel", "in-confirm-channel", "in-stream", "in-confirm-stream"));
        }
        Args args = new Args("bridge " + role, argv, 2, valued, Set.of("external-driver"));
        BridgeSettings settings = settings(args);
        BridgeEnd end;
        if (role.equals("duplex")) {
            args.expectPositional(0);
            settings.ring = Path.of(required(args, "send", "RING (the ring to send)"));
            BridgeSettings in = incoming(args, settings);
            end = BridgeDuplex.open(settings, in);
            System.out.println("bridge duplex: " + settings.ring + " -> " + settings.channel + " stream " + settings.stream
                    + ", " + in.ring + " <- " + in.channel + " stream " + in.stream + " (threading "
                    + settings.threading.name().toLowerCase(Locale.ROOT) + ")");
        } else {
            settings.ring = Path.of(args.positional(0, "RING (the ring file)"));
            args.expectPositional(1);
            end = role.equals("send") ? BridgeSender.open(settings) : BridgeReceiver.open(settings);
            System.out.println("bridge " + role + ": " + settings.ring + " " + (role.equals("send") ? "->" : "<-") + " "
                    + settings.channel + " stream " + settings.stream + " (confirms " + settings.confirmChannel
                    + " stream " + settings.confirmStream + ", threading "
                    + settings.threading.name().toLowerCase(Locale.ROOT) + ")");
        }
        System.out.flush();
        BridgeRunner.run(end, settings.idle, settings.statsEveryMs, System.out);
    }

    /** The options every end takes: channels, streams, and the engine's settings. */
    private static final Set<String> ENGINE_OPTIONS = Set.of("channel", "confirm-channel", "stream", "confirm-stream",
            "threading", "idle", "term-length", "mtu", "window", "aeron-dir", "link-timeout-ms", "loss-rate",
            "loss-seed", "stats-every-ms");

    private static String required(Args args, String name, String what) {
        String value = args.string(name, null);
        if (value == null) {
            throw new UsageException(args.command() + ": --" + name + " " + what + " is required");
        }
        return value;
    }

    /** A duplex end's incoming direction: its ring, channels and streams; the engine settings are {@code out}'s. */
    private static BridgeSettings incoming(Args args, BridgeSettings out) {
        BridgeSettings in = new BridgeSettings();
        in.ring = Path.of(required(args, "receive", "RING (the ring to write what arrives into)"));
        in.channel = channel(args, "in-channel");
        in.confirmChannel = channel(args, "in-confirm-channel");
        in.stream = (int) args.longOption("in-stream", Integer.MIN_VALUE, Integer.MAX_VALUE, 1003);
        in.confirmStream = (int) args.longOption("in-confirm-stream", Integer.MIN_VALUE, Integer.MAX_VALUE, 1004);
        if (in.ring.toAbsolutePath().normalize().equals(out.ring.toAbsolutePath().normalize())) {
            throw new UsageException(args.command() + ": --send and --receive name the same ring (" + in.ring + ")");
        }
        return in;
    }

    /** The settings of {@code args} (all but the ring), each checked here so a bad one is a usage error naming it. */
    static BridgeSettings settings(Args args) {
        BridgeSettings s = new BridgeSettings();
        s.channel = channel(args, "channel");
        s.confirmChannel = channel(args, "confirm-channel");
        s.stream = (int) args.longOption("stream", Integer.MIN_VALUE, Integer.MAX_VALUE, s.stream);
        s.confirmStream = (int) args.longOption("confirm-stream", Integer.MIN_VALUE, Integer.MAX_VALUE, s.confirmStream);
        if (s.channel.equals(s.confirmChannel) && s.stream == s.confirmStream) {
            throw new UsageException(args.command() + ": the data and confirm streams are the same (" + s.channel
                    + " stream " + s.stream + "): give --confirm-stream another id or --confirm-channel another address");
        }
        return engine(args, s);
    }

    /** The engine's settings of {@code args} (threading, idle, term, mtu, window, driver folder, ...) into {@code s}. */
    private static BridgeSettings engine(Args args, BridgeSettings s) {
        s.threading = choice(args, "threading", BridgeSettings.Threading.class, s.threading);
        s.idle = choice(args, "idle", BridgeSettings.Idle.class, s.idle);
        s.termLength = (int) args.longOption("term-length", 64 << 10, 1 << 30, s.termLength);
        if (Integer.bitCount(s.termLength) != 1) {
            throw new UsageException(args.command() + ": --term-length " + s.termLength
                    + " is not a power of two (Aeron's terms are 64k to 1g, powers of two)");
        }
        s.mtu = (int) args.longOption("mtu", 64, 65504, s.mtu);
        if (s.mtu % 32 != 0) {
            throw new UsageException(args.command() + ": --mtu " + s.mtu + " is not a multiple of 32 (Aeron's frame alignment)");
        }
        s.window = (int) args.longOption("window", s.mtu, s.termLength / 2, s.window);
        String dir = args.string("aeron-dir", null);
        s.aeronDir = dir == null ? null : Path.of(dir);
        s.externalDriver = args.flag("external-driver");
        if (s.externalDriver && s.aeronDir == null) {
            throw new UsageException(args.command() + ": --external-driver needs --aeron-dir (where that driver runs)");
        }
        s.linkTimeoutMs = args.longOption("link-timeout-ms", 100, 600_000, s.linkTimeoutMs);
        String loss = args.string("loss-rate", "0");
        try {
            s.lossRate = Double.parseDouble(loss);
        } catch (NumberFormatException e) {
            s.lossRate = -1;
        }
        if (!(s.lossRate >= 0 && s.lossRate < 1)) {
            throw new UsageException(args.command() + ": --loss-rate expects a fraction in [0, 1), got '" + loss + "'");
        }
        s.lossSeed = args.longOption("loss-seed", Long.MIN_VALUE, Long.MAX_VALUE, s.lossSeed);
        s.statsEveryMs = args.longOption("stats-every-ms", 0, Long.MAX_VALUE, 0);
        return s;
    }

    private static String channel(Args args, String name) {
        String channel = args.string(name, null);
        if (channel == null) {
            throw new UsageException(args.command() + ": --" + name + " is required (an Aeron channel, e.g."
                    + " aeron:udp?endpoint=HOST:PORT or aeron:ipc)");
        }
        if (!channel.startsWith("aeron:udp") && !channel.startsWith("aeron:ipc")) {
            throw new UsageException(args.command() + ": --" + name + " '" + channel
                    + "' is not an Aeron channel (aeron:udp?endpoint=HOST:PORT, or aeron:ipc)");
        }
        return channel;
    }

    private static <E extends Enum<E>> E choice(Args args, String name, Class<E> type, E fallback) {
        String raw = args.string(name, null);
        if (raw == null) {
            return fallback;
        }
        try {
            return Enum.valueOf(type, raw.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException(args.command() + ": --" + name + " '" + raw + "' is not one of "
                    + Arrays.stream(type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList());
        }
    }
}
