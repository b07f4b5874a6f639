package dev.sympathy.app;

import dev.sympathy.ring.BroadcastReceiver;
import dev.sympathy.ring.BroadcastTransmitter;
import dev.sympathy.ring.ManyToOneProducer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import dev.sympathy.ring.RingTimeoutException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * {@code run ipc peer ROLE RING --size S [--type T] --count N --core C}: the Java peers of
 * {@code run ipc}'s mpsc and broadcast variants, with the arguments and protocol of the Rust
 * binary's {@code sympathy run ipc-peer ROLE} (java/sidecar hands {@code run NAME} to the JMH
 * runner unless experiments/NAME.toml exists, hence {@code run ipc peer}) of the same roles (crates/lab/src/ipc/kinds.rs), so that
 * either language's run starts either language's peers. Each pins its thread to {@code C},
 * opens the existing ring, warms this JVM's loop up on an in-memory ring, prints {@code ready}
 * and waits for a {@code go} line on its standard input:
 *
 * <ul>
 *   <li>{@code mpsc-producer}: writes N pattern messages as type T into a many-to-one ring,
 *       waiting while it is full;
 *   <li>{@code transmitter}: transmits N pattern messages (type 1) into a broadcast ring;
 *   <li>{@code receiver}: joins a broadcast ring before its first message, receives and verifies N
 *       messages in order (a lap fails) and prints {@code elapsed_ns=} its first message to its last.
 * </ul>
 */
final class IpcPeer {
    private IpcPeer() {}

    /** How long a peer waits on a ring that stays full, or to open one. */
    private static final long TIMEOUT_MS = 30_000;

    /** Messages of the warm-up on an in-memory ring (this JVM's loop compiled before {@code go}). */
    private static final long WARMUP_MESSAGES = 500_000;

    /** {@code argv}: {@code run ipc peer ROLE ...}. */
    static void run(String[] argv) throws IOException, InterruptedException {
        String command = "run ipc peer";
        if (argv.length < 4) {
            throw new UsageException(command + ": give a role: mpsc-producer, transmitter or receiver");
        }
        String role = argv[3];
        Args args = new Args(command + " " + role, argv, 4, Set.of("size", "type", "count", "core"), Set.of());
        args.expectPositional(1);
        Path path = Path.of(args.positional(0, "the ring file"));
        int size = (int) args.requiredLong("size", TestPattern.MIN_SIZE, 1 << 27);
        long count = args.requiredLong("count", 1, Long.MAX_VALUE);
        int core = (int) args.requiredLong("core", 0, 1 << 16);
        switch (role) {
            case "mpsc-producer" -> {
                int type = (int) args.requiredLong("type", 1, Integer.MAX_VALUE);
                try (RingFile ring = RingFile.open(path, Duration.ofMillis(TIMEOUT_MS), RingKind.MANY_TO_ONE)) {
                    Cores.onPinnedThread(command, role, core, () -> {
                        produce(ring, type, size, count);
                        return null;
                    });
                }
            }
            case "transmitter" -> {
                try (RingFile ring = RingFile.open(path, Duration.ofMillis(TIMEOUT_MS), RingKind.BROADCAST)) {
                    Cores.onPinnedThread(command, role, core, () -> {
                        transmit(ring, size, count);
                        return null;
                    });
                }
            }
            case "receiver" -> {
                try (RingFile ring = RingFile.open(path, Duration.ofMillis(TIMEOUT_MS), RingKind.BROADCAST)) {
                    long nanos = Cores.onPinnedThread(command, role, core, () -> {
                        BroadcastReceiver receiver = ring.broadcastReceiver();
                        IpcKinds.warmBroadcast(size, WARMUP_MESSAGES);
                        readyThenGo();
                        return IpcKinds.receiveAll(receiver, count, null);
                    });
                    System.out.println("elapsed_ns=" + nanos);
                    System.out.flush();
                }
            }
            default -> throw new UsageException(command + ": unknown role '" + role
                    + "' (mpsc-producer, transmitter, receiver)");
        }
    }

    /** Prints {@code ready}, then waits for the {@code go} line. */
    private static void readyThenGo() throws IOException {
        System.out.println("ready");
        System.out.flush();
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
        if (line == null || !line.trim().equals("go")) {
            throw new IllegalStateException("run ipc peer: the measuring process called the run off before `go`");
        }
    }

    private static void produce(RingFile ring, int type, int size, long count) throws IOException {
        IpcKinds.warmManyToOne(size, WARMUP_MESSAGES);
        try (ManyToOneProducer producer = ring.manyToOneProducer()) {
            byte[] message = new byte[size];
            readyThenGo();
            for (long i = 0; i < count; i++) {
                TestPattern.fill(message, i, size);
                if (!producer.write(type, message, 0, size)) {
                    waitForRoom(producer, type, message, size, i, count);
                }
            }
        }
    }

    /** Retries a write while the ring is full, up to {@link #TIMEOUT_MS}. */
    private static void waitForRoom(ManyToOneProducer producer, int type, byte[] message, int size, long i, long count) {
        long start = System.currentTimeMillis();
        long spins = 0;
        while (!producer.write(type, message, 0, size)) {
            Thread.onSpinWait();
            if ((++spins & 0xFFFF) == 0 && System.currentTimeMillis() - start > TIMEOUT_MS) {
                throw new RingTimeoutException("room in the many-to-one ring (" + i + " of " + count
                        + " messages written; is the consumer reading?)", TIMEOUT_MS);
            }
        }
    }

    private static void transmit(RingFile ring, int size, long count) throws IOException {
        IpcKinds.warmBroadcast(size, WARMUP_MESSAGES);
        try (BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
            byte[] message = new byte[size];
            readyThenGo();
            for (long i = 0; i < count; i++) {
                TestPattern.fill(message, i, size);
                transmitter.transmit(1, message, 0, size);
            }
        }
    }
}
