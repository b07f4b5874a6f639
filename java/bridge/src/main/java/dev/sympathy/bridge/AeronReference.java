package dev.sympathy.bridge;

import static dev.sympathy.bridge.BridgeFrames.DATA_FROM_OFFSET;
import static dev.sympathy.bridge.BridgeFrames.DATA_HEADER_LENGTH;
import static dev.sympathy.bridge.BridgeFrames.DATA_REWIND_OFFSET;
import static dev.sympathy.bridge.BridgeFrames.DATA_SOURCE_OFFSET;
import static dev.sympathy.bridge.BridgeFrames.DATA_TO_OFFSET;
import static dev.sympathy.bridge.BridgeFrames.DATA_TYPE_OFFSET;

import io.aeron.ControlledFragmentAssembler;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.Header;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * Aeron alone, without the bridge's rings: the reference rows of the bridge experiment
 * ({@code experiments/bridge.toml}'s {@code aeron} and {@code aeron-echo}). Each end is a
 * {@link BridgeNode} with the bridge's settings ({@link BridgeSettings}'s defaults: INVOKER
 * threading, the loop turning the embedded driver; BACKOFF idle; 4m terms, mtu 1408, 128k
 * window) and carries the bridge's frames: a 32-byte data header ({@link BridgeFrames}, the
 * fields the bridge's sender writes) and {@code size} payload bytes of the test pattern (message
 * {@code i}: {@code i} little-endian in its first 8 bytes, the sequence every end checks, then
 * byte {@code k} is {@code (i + k) mod 256}), filled in place through {@code tryClaim}.
 *
 * <ul>
 *   <li>{@link Publisher}: offers {@code count} frames on an exclusive publication, up to
 *       {@value #BATCH} a turn (the bridge's sender reads 64 records a turn), waiting on back
 *       pressure and while not connected;
 *   <li>{@link Subscriber}: polls them (reassembled), checks each one's length and sequence, and
 *       times the first to the last;
 *   <li>{@link Pong}: sends every frame back on the reply channel;
 *   <li>{@link Pinger}: one frame in flight: offers frame {@code i}, polls until it is back,
 *       checks it, times the round trip.
 * </ul>
 *
 * <pre>{@code
 * BridgeSettings s = new BridgeSettings();
 * s.channel = "aeron:udp?endpoint=127.0.0.1:40133";
 * s.aeronDir = Path.of("/dev/shm/sub");
 * try (AeronReference.Subscriber sub = AeronReference.Subscriber.open(s, 32)) {
 *     long nanos = sub.receive(1_000_000, 30_000, idle);   // first frame to last
 * }
 * }</pre>
 *
 * <p>Every wait is bounded: a blocking call fails with a {@link BridgeException} of kind
 * {@code timeout} after {@code timeoutMs} without progress.
 */
public final class AeronReference {
    private AeronReference() {}

    /** Frames offered per turn at most (the bridge's sender reads 64 records a turn). */
    static final int BATCH = 64;
    /** Fragments per poll at most (the bridge's receiver's limit). */
    static final int FRAGMENT_LIMIT = 64;
    /** Where a frame's sequence number is: the payload's first 8 bytes, after the bridge's header. */
    public static final int SEQUENCE_OFFSET = DATA_HEADER_LENGTH;
    /** The smallest payload: room for the sequence. */
    public static final int MIN_SIZE = 8;

    /** Bytes on the wire per message of {@code size} payload bytes: the bridge's header and the payload. */
    public static int frameLength(int size) {
        return DATA_HEADER_LENGTH + size;
    }

    /**
     * Gives {@code settings} a driver folder of its own when it has none (under {@code /dev/shm}
     * where there is one), by role and process: the bridge's default is named by its ring, which
     * these ends do not have.
     */
    static void defaultDir(BridgeSettings settings, String role) {
        if (settings.aeronDir == null) {
            Path shm = Path.of("/dev/shm");
            Path parent = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
            settings.aeronDir = parent.resolve("sympathy-aeron-" + role + "-" + ProcessHandle.current().pid());
        }
    }

    /** The idle strategy of {@code idle}, as a bridge end's loop waits. */
    public static IdleStrategy idleStrategy(BridgeSettings.Idle idle) {
        return BridgeNode.idleStrategy(idle);
    }

    private static void checkSize(int size) {
        if (size < MIN_SIZE) {
            throw new IllegalArgumentException("a payload of " + size + " bytes has no room for the 8-byte sequence");
        }
    }

    /**
     * Writes frame {@code i} at {@code at}: the header the bridge's sender writes for the
     * {@code i}th record of {@code size} bytes of a ring (from, to, source, type 1, rewind 0), then
     * the payload of message {@code i}.
     */
    static void putFrame(MutableDirectBuffer frame, int at, long i, int size, long source) {
        long record = (size + 8 + 7) & ~7L; // the ring record's length: 8-byte header, 8-byte alignment
        frame.putLong(at + DATA_FROM_OFFSET, i * record, ByteOrder.LITTLE_ENDIAN);
        frame.putLong(at + DATA_TO_OFFSET, (i + 1) * record, ByteOrder.LITTLE_ENDIAN);
        frame.putLong(at + DATA_SOURCE_OFFSET, source, ByteOrder.LITTLE_ENDIAN);
        frame.putInt(at + DATA_TYPE_OFFSET, 1, ByteOrder.LITTLE_ENDIAN);
        frame.putInt(at + DATA_REWIND_OFFSET, 0, ByteOrder.LITTLE_ENDIAN);
        int payload = at + SEQUENCE_OFFSET;
        frame.putLong(payload, i, ByteOrder.LITTLE_ENDIAN);
        for (int k = 8; k < size; k++) {
            frame.putByte(payload + k, (byte) (i + k));
        }
    }

    /** Checks that a frame of {@code length} bytes is {@code expected}'s, of the right length. */
    static void checkFrame(String who, DirectBuffer buffer, int offset, int length, int frameLength, long expected) {
        if (length != frameLength) {
            throw new BridgeException("bad-frame", who + ": frame " + expected + " is " + length + " bytes, expected "
                    + frameLength + " (the payload and the bridge's " + DATA_HEADER_LENGTH + "-byte header)");
        }
        long sequence = buffer.getLong(offset + SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (sequence != expected) {
            throw new BridgeException("bad-frame", who + ": frame " + expected + " carries sequence " + sequence
                    + " (a frame lost, repeated or out of order)");
        }
    }

    /** Fails when {@code result} of a claim means the publication can never take a frame again. */
    static void checkClaim(String who, long result) {
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
            throw new BridgeException("publication-closed", who + ": the publication cannot take more ("
                    + Publication.errorString(result) + ")");
        }
    }

    /** A deadline that moves on with progress: {@code timeoutMs} without any fails. */
    private static final class Progress {
        private final String who;
        private final long timeoutMs;
        private long value = -1;
        private long sinceMs = System.currentTimeMillis();
        private int turns;

        Progress(String who, long timeoutMs) {
            this.who = who;
            this.timeoutMs = timeoutMs;
        }

        /** Looks at the clock every 256 turns; {@code what} says where the end stands. */
        void check(long now, String what) {
            if ((++turns & 255) != 0) {
                return;
            }
            long ms = System.currentTimeMillis();
            if (now != value) {
                value = now;
                sinceMs = ms;
            } else if (ms - sinceMs > timeoutMs) {
                throw new BridgeException("timeout", who + ": no progress for " + timeoutMs + " ms: " + what);
            }
        }
    }

    /**
     * What every peer holds: its node, and whether that node's driver is its own (else it runs
     * in another process, which sends for it).
     */
    abstract static class Peer implements AutoCloseable {
        final BridgeNode node;
        private final boolean ownsDriver;

        Peer(BridgeNode node, boolean ownsDriver) {
            this.node = node;
            this.ownsDriver = ownsDriver;
        }

        /**
         * Turns the node for {@code ms} more milliseconds (over UDP an end's driver sends only
         * while turned: what is still in the term, a retransmit a NAK asks for). An end on another
         * process's driver (IPC: which may be gone by now) returns at once.
         */
        public void linger(long ms, IdleStrategy idle) {
            if (!ownsDriver) {
                return;
            }
            long until = System.currentTimeMillis() + ms;
            while (System.currentTimeMillis() < until) {
                idle.idle(node.invoke());
            }
        }

        @Override
        public void close() {
            node.close();
        }
    }

    /** The subscribing end of the throughput row: polls frames, checks them, times first to last. */
    public static final class Subscriber extends Peer {
        private final Subscription subscription;
        private final FragmentAssembler assembler;
        private final int frameLength;
        private long received;

        private Subscriber(BridgeNode node, boolean ownsDriver, Subscription subscription, int size) {
            super(node, ownsDriver);
            this.subscription = subscription;
            this.frameLength = frameLength(size);
            this.assembler = new FragmentAssembler(this::onFragment);
        }

        /** Starts the node (its driver unless {@code settings.externalDriver}) and the subscription. */
        public static Subscriber open(BridgeSettings settings, int size) {
            checkSize(size);
            defaultDir(settings, "sub");
            BridgeNode node = new BridgeNode(settings, "sub");
            try {
                return new Subscriber(node, !settings.externalDriver,
                        node.aeron().addSubscription(settings.channel, settings.stream), size);
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }

        private void onFragment(DirectBuffer buffer, int offset, int length, Header header) {
            checkFrame("aeron-sub", buffer, offset, length, frameLength, received);
            received++;
        }

        /** One turn: the node's duty cycle and a poll; the work done. */
        public int doWork() {
            return node.invoke() + subscription.poll(assembler, FRAGMENT_LIMIT);
        }

        /** Frames received and checked so far. */
        public long received() {
            return received;
        }

        /** Whether a publication is connected (an image is there). */
        public boolean connected() {
            return subscription.isConnected();
        }

        /**
         * Polls until {@code count} frames are in, idling with {@code idle} when a turn found
         * nothing; returns the nanoseconds from the first frame to the last.
         */
        public long receive(long count, long timeoutMs, IdleStrategy idle) {
            Progress progress = new Progress("aeron-sub", timeoutMs);
            long first = 0;
            while (received < count) {
                long before = received;
                int work = doWork();
                if (received != before && first == 0) {
                    first = System.nanoTime();
                }
                idle.idle(work);
                progress.check(received, "received " + received + " of " + count + " frames"
                        + (connected() ? "" : ", no publication connected"));
            }
            return System.nanoTime() - first;
        }
    }

    /** The publishing end of the throughput row: {@code count} frames through {@code tryClaim}, filled in place. */
    public static final class Publisher extends Peer {
        private final ExclusivePublication publication;
        private final BufferClaim claim = new BufferClaim();
        private final int size;
        private final int frameLength;
        private final long source = System.currentTimeMillis();
        private long sent;
        private long backPressured;

        private Publisher(BridgeNode node, boolean ownsDriver, ExclusivePublication publication, int size) {
            super(node, ownsDriver);
            this.publication = publication;
            this.size = size;
            this.frameLength = frameLength(size);
        }

        /** Starts the node and the exclusive publication; refuses a frame over its largest payload (one fragment). */
        public static Publisher open(BridgeSettings settings, int size) {
            checkSize(size);
            defaultDir(settings, "pub");
            BridgeNode node = new BridgeNode(settings, "pub");
            try {
                ExclusivePublication publication = node.aeron().addExclusivePublication(settings.channel,
                        settings.stream);
                if (frameLength(size) > publication.maxPayloadLength()) {
                    throw new BridgeException("message-too-long", "aeron-pub: a frame of " + frameLength(size)
                            + " bytes is over what tryClaim takes (" + publication.maxPayloadLength()
                            + " bytes: the mtu less Aeron's header)");
                }
                return new Publisher(node, !settings.externalDriver, publication, size);
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }

        /** One turn: the node's duty cycle, then up to {@value #BATCH} frames until {@code count} are sent; the work done. */
        public int doWork(long count) {
            int work = node.invoke();
            for (int k = 0; k < BATCH && sent < count; k++) {
                long result = publication.tryClaim(frameLength, claim);
                if (result < 0) {
                    checkClaim("aeron-pub", result);
                    if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION) {
                        backPressured++;
                    }
                    break;
                }
                putFrame(claim.buffer(), claim.offset(), sent, size, source);
                claim.commit();
                sent++;
                work++;
            }
            return work;
        }

        /** Frames sent so far. */
        public long sent() {
            return sent;
        }

        /** Claims refused for back pressure (or an admin action) so far. */
        public long backPressured() {
            return backPressured;
        }

        /** Whether a subscriber is connected. */
        public boolean connected() {
            return publication.isConnected();
        }

        /** Sends until {@code count} frames are out, waiting while not connected or back-pressured. */
        public void send(long count, long timeoutMs, IdleStrategy idle) {
            Progress progress = new Progress("aeron-pub", timeoutMs);
            while (sent < count) {
                idle.idle(doWork(count));
                progress.check(sent, "sent " + sent + " of " + count + " frames"
                        + (connected() ? " (back-pressured)" : ", no subscriber connected"));
            }
        }

    }

    /** The echoing end of the round-trip row: sends every frame back on the reply channel. */
    public static final class Pong extends Peer {
        private final Subscription in;
        private final ExclusivePublication out;
        private final BufferClaim claim = new BufferClaim();
        private final ControlledFragmentAssembler assembler;
        private final int frameLength;
        private long echoed;

        private Pong(BridgeNode node, boolean ownsDriver, Subscription in, ExclusivePublication out, int size) {
            super(node, ownsDriver);
            this.in = in;
            this.out = out;
            this.frameLength = frameLength(size);
            this.assembler = new ControlledFragmentAssembler(this::onFragment);
        }

        /**
         * Starts the node, the subscription on {@code settings.channel}/{@code stream} and the
         * reply publication on {@code settings.confirmChannel}/{@code confirmStream}.
         */
        public static Pong open(BridgeSettings settings, int size) {
            checkSize(size);
            defaultDir(settings, "pong");
            BridgeNode node = new BridgeNode(settings, "pong");
            try {
                Subscription in = node.aeron().addSubscription(settings.channel, settings.stream);
                ExclusivePublication out = node.aeron().addExclusivePublication(settings.confirmChannel,
                        settings.confirmStream);
                return new Pong(node, !settings.externalDriver, in, out, size);
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }

        private Action onFragment(DirectBuffer buffer, int offset, int length, Header header) {
            checkFrame("aeron-pong", buffer, offset, length, frameLength, echoed);
            long result = out.tryClaim(length, claim);
            if (result < 0) {
                checkClaim("aeron-pong", result);
                return Action.ABORT; // polled again next turn
            }
            claim.buffer().putBytes(claim.offset(), buffer, offset, length);
            claim.commit();
            echoed++;
            return Action.CONTINUE;
        }

        /** One turn: the node's duty cycle and a poll that echoes what came; the work done. */
        public int doWork() {
            return node.invoke() + in.controlledPoll(assembler, FRAGMENT_LIMIT);
        }

        /** Frames echoed so far. */
        public long echoed() {
            return echoed;
        }

        /** Echoes until {@code count} frames went back. */
        public void echo(long count, long timeoutMs, IdleStrategy idle) {
            Progress progress = new Progress("aeron-pong", timeoutMs);
            while (echoed < count) {
                idle.idle(doWork());
                progress.check(echoed, "echoed " + echoed + " of " + count + " frames"
                        + (in.isConnected() ? "" : ", no pinger connected"));
            }
        }

    }

    /** The pinging end of the round-trip row: one frame in flight, each round trip timed. */
    public static final class Pinger extends Peer {
        private final ExclusivePublication out;
        private final Subscription in;
        private final BufferClaim claim = new BufferClaim();
        private final FragmentAssembler assembler;
        private final int size;
        private final int frameLength;
        private final long source = System.currentTimeMillis();
        /** The sequence the next echo must carry. */
        private long expected;
        private long returned;

        private Pinger(BridgeNode node, boolean ownsDriver, ExclusivePublication out, Subscription in, int size) {
            super(node, ownsDriver);
            this.out = out;
            this.in = in;
            this.size = size;
            this.frameLength = frameLength(size);
            this.assembler = new FragmentAssembler(this::onFragment);
        }

        /**
         * Starts the node, the publication on {@code settings.channel}/{@code stream} and the
         * subscription to the replies on {@code settings.confirmChannel}/{@code confirmStream}.
         */
        public static Pinger open(BridgeSettings settings, int size) {
            checkSize(size);
            defaultDir(settings, "ping");
            BridgeNode node = new BridgeNode(settings, "ping");
            try {
                ExclusivePublication out = node.aeron().addExclusivePublication(settings.channel, settings.stream);
                if (frameLength(size) > out.maxPayloadLength()) {
                    throw new BridgeException("message-too-long", "aeron-ping: a frame of " + frameLength(size)
                            + " bytes is over what tryClaim takes (" + out.maxPayloadLength() + " bytes)");
                }
                Subscription in = node.aeron().addSubscription(settings.confirmChannel, settings.confirmStream);
                return new Pinger(node, !settings.externalDriver, out, in, size);
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }

        private void onFragment(DirectBuffer buffer, int offset, int length, Header header) {
            checkFrame("aeron-ping", buffer, offset, length, frameLength, expected);
            expected++;
            returned++;
        }

        /** Echoes received and checked so far. */
        public long returned() {
            return returned;
        }

        /**
         * Runs {@code warmup + rtt.length} round trips and leaves the last {@code rtt.length}
         * round-trip times in {@code rtt} (nanoseconds, in no order): every round trip is recorded,
         * in slot {@code i mod rtt.length}, so the timed ones run the warm-up's code (as the ring
         * pinger's {@code EchoLoop}).
         */
        public void run(long warmup, long[] rtt, long timeoutMs, IdleStrategy idle) {
            long timed = rtt.length;
            long count = warmup + timed;
            for (long i = 0; i < count; i++) {
                rtt[(int) (i % timed)] = roundTrip(i, timeoutMs, idle);
            }
        }

        /** One round trip of frame {@code i}: offered (waiting while not connected), then polled until back. */
        private long roundTrip(long i, long timeoutMs, IdleStrategy idle) {
            Progress progress = new Progress("aeron-ping", timeoutMs);
            long start = System.nanoTime();
            long result;
            while ((result = out.tryClaim(frameLength, claim)) < 0) {
                checkClaim("aeron-ping", result);
                idle.idle(node.invoke() + in.poll(assembler, 1));
                progress.check(0, "frame " + i + " not offered: " + Publication.errorString(result));
                start = System.nanoTime();
            }
            putFrame(claim.buffer(), claim.offset(), i, size, source);
            claim.commit();
            idle.reset();
            while (returned <= i) {
                idle.idle(node.invoke() + in.poll(assembler, 1));
                progress.check(returned, "frame " + i + " not back" + (in.isConnected() ? "" : ", no pong connected"));
            }
            return System.nanoTime() - start;
        }
    }
}
