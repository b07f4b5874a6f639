package dev.sympathy.app;

import dev.sympathy.bridge.BridgeEnd;
import dev.sympathy.bridge.BridgeReceiver;
import dev.sympathy.bridge.BridgeRunner;
import dev.sympathy.bridge.BridgeSender;
import dev.sympathy.bridge.BridgeSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
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
                      C, K: Aeron channels, e.g. aeron:udp?endpoint=10.0.0.2:40123 (the receiver's address),
                            aeron:udp?endpoint=10.0.0.1:40124 (the sender's), aeron:udp?endpoint=224.0.1.1:40456
                            (multicast), aeron:ipc (one driver: the receiver with --external-driver)
                      [--stream N] [--confirm-stream N]   stream ids (1001, 1002)
                      [--threading invoker|shared|dedicated]  invoker (default): driver, client and bridge on
                                            one thread; shared/dedicated: the driver's own 1 or 3 threads
                      [--idle spin|backoff] busy-spin, or back off to 1 ms parks when idle (default)
                      [--term-length B]     publication term (4m; largest message term/8)
                      [--mtu B] [--window B]  datagram (1408) and receiver window (128k)
                      [--aeron-dir D] [--external-driver]  the driver's folder; use a running driver there
                      [--link-timeout-ms M] how long a silent link stays up (2000)
                      [--loss-rate R] [--loss-seed S]  drop R (0..1) of the data datagrams this end receives
                                            (Aeron's debug loss generator: a test of recovery)
                      [--stats-every-ms M]  print the end's counters every M ms (and at exit)
                      runs until SIGTERM or SIGINT, then detaches from the ring""";

    static void run(String[] argv) throws IOException {
        String role = argv.length > 1 ? argv[1] : "";
        if (!role.equals("send") && !role.equals("receive")) {
            throw new UsageException("bridge: expected `bridge send RING ...` or `bridge receive RING ...`"
                    + (role.isEmpty() ? "" : ", got '" + role + "'"));
        }
        Args args = new Args("bridge " + role, argv, 2, Set.of("channel", "confirm-channel", "stream", "confirm-stream",
                "threading", "idle", "term-length", "mtu", "window", "aeron-dir", "link-timeout-ms", "loss-rate",
                "loss-seed", "stats-every-ms"), Set.of("external-driver"));
        BridgeSettings settings = settings(args);
        BridgeEnd end = role.equals("send") ? BridgeSender.open(settings) : BridgeReceiver.open(settings);
        System.out.println("bridge " + role + ": " + settings.ring + " " + (role.equals("send") ? "->" : "<-") + " "
                + settings.channel + " stream " + settings.stream + " (confirms " + settings.confirmChannel + " stream "
                + settings.confirmStream + ", threading " + settings.threading.name().toLowerCase(Locale.ROOT) + ")");
        System.out.flush();
        BridgeRunner.run(end, settings.idle, settings.statsEveryMs, System.out);
    }

    /** The settings of {@code args}, each checked here so a bad one is a usage error naming it. */
    static BridgeSettings settings(Args args) {
        BridgeSettings s = new BridgeSettings();
        s.ring = Path.of(args.positional(0, "RING (the ring file)"));
        args.expectPositional(1);
        s.channel = channel(args, "channel");
        s.confirmChannel = channel(args, "confirm-channel");
        s.stream = (int) args.longOption("stream", Integer.MIN_VALUE, Integer.MAX_VALUE, s.stream);
        s.confirmStream = (int) args.longOption("confirm-stream", Integer.MIN_VALUE, Integer.MAX_VALUE, s.confirmStream);
        if (s.channel.equals(s.confirmChannel) && s.stream == s.confirmStream) {
            throw new UsageException(args.command() + ": the data and confirm streams are the same (" + s.channel
                    + " stream " + s.stream + "): give --confirm-stream another id or --confirm-channel another address");
        }
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
