package dev.sympathy.app;

import dev.sympathy.ring.BroadcastReceiver;
import dev.sympathy.ring.BroadcastTransmitter;
import dev.sympathy.ring.ManyToOneConsumer;
import dev.sympathy.ring.ManyToOneProducer;
import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.BroadcastBufferDescriptor;
import org.agrona.concurrent.broadcast.CopyBroadcastReceiver;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * {@code run ipc}'s variants on the other ring kinds, with Java as the result's language (the
 * twin of crates/lab/src/ipc/kinds.rs):
 *
 * <ul>
 *   <li>{@code mpsc}, {@code mpsc-mixed}: producer processes (Java's {@link IpcPeer},
 *       {@code run ipc peer mpsc-producer}, or Rust's {@code run ipc-peer mpsc-producer}) write
 *       into one many-to-one ring, producer {@code t} its share of the messages as type
 *       {@code t + 1}; a pinned thread of this JVM reads and
 *       verifies every stream in order, timed from the first message to the last.
 *   <li>{@code broadcast}: a transmitter process and {@code receivers} receivers (a pinned thread
 *       of this JVM and receiver processes), each verifying every message, each timed from its
 *       first message to its last; the result is the slowest. The ring holds the whole run, so no
 *       receiver can be lapped; a lap fails the run.
 *   <li>{@code mpsc-agrona}, {@code broadcast-agrona}: the same in one JVM on Agrona's own
 *       {@code ManyToOneRingBuffer} and {@code BroadcastTransmitter}/{@code CopyBroadcastReceiver}
 *       over direct memory: the reference rows.
 * </ul>
 *
 * <p>Every peer prints {@code ready} once attached (and warmed up) and starts on a {@code go}
 * line on its standard input, so the producers start together.
 */
final class IpcKinds {
    private IpcKinds() {}

    /** One run's figure (messages per second) and a note for the human line. */
    record Rate(double value, String note) {}

    /** How long a loop may see no progress before it fails. */
    private static final long NO_PROGRESS_MS = 30_000;

    /** Messages through this JVM's own loops before the first measured run of a kind. */
    static final long WARMUP_MESSAGES = 1_000_000;

    private static final AtomicBoolean CONSUMER_WARM = new AtomicBoolean();
    private static final AtomicBoolean RECEIVER_WARM = new AtomicBoolean();

    /** {@code count} split over {@code parts} producers as evenly as it goes (the first ones one more). */
    static long[] split(long count, int parts) {
        long[] counts = new long[parts];
        for (int t = 0; t < parts; t++) {
            counts[t] = count / parts + (t < count % parts ? 1 : 0);
        }
        return counts;
    }

    // ---- many-to-one ------------------------------------------------------------------------

    /** One mpsc or mpsc-mixed run on a fresh ring file. */
    static Rate manyToOne(IpcExperiment.Case c, Cores cores, Path sympathy, Path file)
            throws IOException, InterruptedException {
        List<String> languages = c.variant().equals("mpsc-mixed") ? List.of("rust", "java")
                : Collections.nCopies(c.peers(), "java");
        long[] counts = split(c.messages(), languages.size());
        if (!CONSUMER_WARM.getAndSet(true)) {
            Cores.onPinnedThread("run ipc", "consumer", cores.consumer(), () -> {
                warmManyToOne(c.sizeBytes(), WARMUP_MESSAGES);
                return null;
            });
        }
        try (RingFile ring = RingFile.create(file, c.capacity(), RingKind.MANY_TO_ONE);
                Peers peers = new Peers()) {
            SizeSpec.parse("run ipc", Integer.toString(c.sizeBytes()), 1).checkFits("run ipc", ring.maxMessageLength());
            for (int t = 0; t < languages.size(); t++) {
                peers.start(languages.get(t), sympathy, List.of("mpsc-producer", file.toString(), "--size",
                        Integer.toString(c.sizeBytes()), "--type", Integer.toString(t + 1), "--count",
                        Long.toString(counts[t]), "--core", Integer.toString(cores.producer())), "producer " + (t + 1));
            }
            peers.awaitReady();
            long nanos = Cores.onPinnedThread("run ipc", "consumer", cores.consumer(), () -> {
                try (ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
                    peers.go();
                    return consumeStreams(consumer, counts, peers);
                }
            });
            peers.finish();
            return new Rate(c.messages() / (Math.max(nanos, 1) / 1e9), "");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Verifies every stream (type {@code t + 1}: indices 0, 1, ... in order) of the producers. */
    private static final class Streams implements MessageHandler {
        final MessageCheck[] checks;
        long received;

        Streams(int producers) {
            checks = new MessageCheck[producers];
            for (int t = 0; t < producers; t++) {
                checks[t] = new MessageCheck(t + 1, 0);
            }
        }

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            if (typeId < 1 || typeId > checks.length) {
                throw new PatternMismatchException("verification failed at message " + received + ": type " + typeId
                        + ", from no producer (1.." + checks.length + ")");
            }
            FfmImpl.verify(checks[typeId - 1], typeId, buffer, offset, length);
            received++;
        }
    }

    /** Reads until every producer's count is verified; returns the nanoseconds from the first message to the last. */
    private static long consumeStreams(ManyToOneConsumer consumer, long[] counts, Peers peers) {
        long total = 0;
        for (long n : counts) {
            total += n;
        }
        Streams streams = new Streams(counts.length);
        Heartbeat beat = new Heartbeat(consumer::heartbeat);
        Watch watch = new Watch("producers", total, peers);
        long first = 0;
        long last = 0;
        while (streams.received < total) {
            int n = consumer.read(streams, (int) Math.min(total - streams.received, 1 << 16));
            beat.tick();
            if (n > 0) {
                last = System.nanoTime();
                if (first == 0) {
                    first = last;
                }
                continue;
            }
            watch.idle(streams.received);
        }
        for (int t = 0; t < counts.length; t++) {
            if (streams.checks[t].received() != counts[t]) {
                throw new PatternMismatchException("producer " + (t + 1) + " sent " + streams.checks[t].received()
                        + " messages, expected " + counts[t]);
            }
        }
        return last - first;
    }

    /** This JVM's many-to-one write and read-and-verify paths, compiled on an in-memory ring. */
    static void warmManyToOne(int size, long messages) {
        try (RingFile ring = RingFile.inMemory(1 << 20, RingKind.MANY_TO_ONE);
                ManyToOneProducer producer = ring.manyToOneProducer();
                ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
            byte[] message = new byte[size];
            Streams streams = new Streams(1);
            long written = 0;
            while (written < messages) {
                for (int k = 0; k < 4096 && written < messages; k++) {
                    TestPattern.fill(message, written, size);
                    if (!producer.write(1, message, 0, size)) {
                        break;
                    }
                    written++;
                }
                while (streams.received < written) {
                    consumer.read(streams, 1 << 16);
                }
            }
        }
    }

    // ---- broadcast --------------------------------------------------------------------------

    /** One broadcast run on a fresh ring file: the slowest receiver's rate, each one's in the note. */
    static Rate broadcast(IpcExperiment.Case c, Cores cores, Path sympathy, Path file)
            throws IOException, InterruptedException {
        if (!RECEIVER_WARM.getAndSet(true)) {
            Cores.onPinnedThread("run ipc", "receiver", cores.consumer(), () -> {
                warmBroadcast(c.sizeBytes(), WARMUP_MESSAGES);
                return null;
            });
        }
        try (RingFile ring = RingFile.create(file, c.capacity(), RingKind.BROADCAST); Peers peers = new Peers()) {
            SizeSpec.parse("run ipc", Integer.toString(c.sizeBytes()), 1).checkFits("run ipc", ring.maxMessageLength());
            prefault(file, c.capacity());
            BroadcastReceiver receiver = ring.broadcastReceiver();
            List<String> args = List.of(file.toString(), "--size", Integer.toString(c.sizeBytes()), "--count",
                    Long.toString(c.messages()), "--core");
            for (int r = 1; r < c.peers(); r++) {
                peers.start("java", sympathy, concat("receiver", args, cores.consumer()), "receiver " + (r + 1));
            }
            peers.start("java", sympathy, concat("transmitter", args, cores.producer()), "transmitter");
            peers.awaitReady();
            long nanos = Cores.onPinnedThread("run ipc", "receiver", cores.consumer(), () -> {
                peers.go();
                return receiveAll(receiver, c.messages(), new Watch("transmitter", c.messages(), peers));
            });
            List<String> outputs = peers.finish();
            List<Double> rates = new ArrayList<>();
            rates.add(c.messages() / (Math.max(nanos, 1) / 1e9));
            for (int p = 0; p < c.peers() - 1; p++) {
                rates.add(c.messages() / (Math.max(ChildJvm.value(outputs.get(p), "elapsed_ns", "receiver"), 1) / 1e9));
            }
            return slowest(rates);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static List<String> concat(String role, List<String> args, int core) {
        List<String> all = new ArrayList<>();
        all.add(role);
        all.addAll(args);
        all.add(Integer.toString(core));
        return all;
    }

    /** The slowest of the receivers' rates, the others named in the note when there are several. */
    private static Rate slowest(List<Double> rates) {
        double min = rates.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        String note = rates.size() < 2 ? ""
                : " (slowest of receivers " + String.join(", ", rates.stream().map(Output::human).toList()) + ")";
        return new Rate(min, note);
    }

    /**
     * Allocates the ring file's record area up front (writes its zeros through the file), so that
     * the run's first touches of a 64 MiB ring are minor faults, not page allocations (as the Rust
     * side does); only before anything writes the ring.
     */
    private static void prefault(Path file, long capacity) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(1 << 20, capacity));
            long start = RingKind.BROADCAST.fileLength(capacity) - capacity - BroadcastBufferDescriptor.TRAILER_LENGTH;
            for (long at = 0; at < capacity; at += zeros.capacity()) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), capacity - at));
                while (zeros.hasRemaining()) {
                    channel.write(zeros, start + at + zeros.position());
                }
            }
        }
    }

    /** Verifies indices 0, 1, ... in order, type 1; a lap fails. */
    private static final class InOrder implements MessageHandler {
        final MessageCheck check = new MessageCheck(1, 0);
        final BroadcastReceiver receiver;

        InOrder(BroadcastReceiver receiver) {
            this.receiver = receiver;
        }

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            if (receiver.lappedCount() != 0) {
                throw lapped(check.received());
            }
            FfmImpl.verify(check, typeId, buffer, offset, length);
        }
    }

    static ConsumeLoop.Incomplete lapped(long received) {
        return new ConsumeLoop.Incomplete("the receiver was lapped after " + received + " messages: the run must fit"
                + " in half the ring");
    }

    /**
     * Receives and verifies {@code count} messages from a receiver that joined before the first;
     * returns the nanoseconds from its first message to its last. {@code watch} (may be null)
     * watches the transmitter while nothing comes.
     */
    static long receiveAll(BroadcastReceiver receiver, long count, Watch watch) {
        if (receiver.joinedAt() != 0) {
            throw new IllegalStateException("the receiver joined at position " + receiver.joinedAt()
                    + ", after the first message");
        }
        InOrder verify = new InOrder(receiver);
        long first = 0;
        long last = 0;
        long lastProgressMs = System.currentTimeMillis();
        long idle = 0;
        long seen = 0;
        while (verify.check.received() < count) {
            int n = receiver.receive(verify, (int) Math.min(count - verify.check.received(), 1 << 16));
            if (receiver.lappedCount() != 0) {
                throw lapped(verify.check.received());
            }
            if (n > 0) {
                last = System.nanoTime();
                if (first == 0) {
                    first = last;
                }
                continue;
            }
            if (watch != null) {
                watch.idle(verify.check.received());
            } else {
                Thread.onSpinWait();
                if ((++idle & 0xFFFF) == 0) {
                    long now = System.currentTimeMillis();
                    if (verify.check.received() != seen) {
                        seen = verify.check.received();
                        lastProgressMs = now;
                    } else if (now - lastProgressMs > NO_PROGRESS_MS) {
                        throw new ConsumeLoop.Incomplete("no message for " + NO_PROGRESS_MS + " ms: received "
                                + verify.check.received() + " of " + count);
                    }
                }
            }
        }
        return last - first;
    }

    /** This JVM's transmit and receive-and-verify paths, compiled on an in-memory ring. */
    static void warmBroadcast(int size, long messages) {
        try (RingFile ring = RingFile.inMemory(1 << 20, RingKind.BROADCAST);
                BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
            BroadcastReceiver receiver = ring.broadcastReceiver();
            InOrder verify = new InOrder(receiver);
            byte[] message = new byte[size];
            long sent = 0;
            while (sent < messages) {
                for (int k = 0; k < 1024 && sent < messages; k++, sent++) {
                    TestPattern.fill(message, sent, size);
                    transmitter.transmit(1, message, 0, size);
                }
                while (verify.check.received() < sent) {
                    receiver.receive(verify, 1 << 16);
                }
            }
        }
    }

    // ---- Agrona's own classes, one JVM ------------------------------------------------------

    /** One mpsc-agrona run: {@code peers} producer threads, a consumer thread, Agrona's ManyToOneRingBuffer. */
    static Rate agronaManyToOne(IpcExperiment.Case c, Cores cores, boolean warmup) throws InterruptedException {
        int producers = c.peers();
        long[] counts = split(warmup ? Math.min(c.messages(), WARMUP_MESSAGES) : c.messages(), producers);
        long total = 0;
        for (long n : counts) {
            total += n;
        }
        ManyToOneRingBuffer rb = new ManyToOneRingBuffer(new UnsafeBuffer(
                ByteBuffer.allocateDirect(Math.toIntExact(c.capacity()) + RingBufferDescriptor.TRAILER_LENGTH)));
        int size = c.sizeBytes();
        CountDownLatch ready = new CountDownLatch(producers);
        AtomicBoolean go = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < producers; t++) {
            int type = t + 1;
            long count = counts[t];
            Thread thread = new Thread(() -> {
                try {
                    Cores.pin("run ipc", cores.producer());
                    byte[] message = new byte[size];
                    UnsafeBuffer src = new UnsafeBuffer(message);
                    ready.countDown();
                    while (!go.get()) {
                        Thread.onSpinWait();
                    }
                    for (long i = 0; i < count; i++) {
                        TestPattern.fill(message, i, size);
                        while (!rb.write(type, src, 0, size)) {
                            if (stop.get()) {
                                return;
                            }
                            Thread.onSpinWait();
                        }
                    }
                } catch (RuntimeException | Error e) {
                    failed.compareAndSet(null, e);
                }
            }, "run-ipc-agrona-producer-" + type);
            threads.add(thread);
            thread.start();
        }
        long totalMessages = total;
        try {
            long nanos = Cores.onPinnedThread("run ipc", "consumer", cores.consumer(), () -> {
                MessageCheck[] checks = new MessageCheck[producers];
                for (int t = 0; t < producers; t++) {
                    checks[t] = new MessageCheck(t + 1, 0);
                }
                long[] received = {0};
                org.agrona.concurrent.MessageHandler verify = (type, buffer, index, length) -> {
                    if (type < 1 || type > producers) {
                        throw new PatternMismatchException("a message of type " + type + ", from no producer");
                    }
                    AgronaImpl.verify(checks[type - 1], type, buffer, index, length);
                    received[0]++;
                };
                ready.await();
                go.set(true);
                long first = 0;
                long last = 0;
                long lastProgressMs = System.currentTimeMillis();
                long idle = 0;
                while (received[0] < totalMessages) {
                    int n = rb.read(verify, 1 << 16);
                    if (n > 0) {
                        last = System.nanoTime();
                        if (first == 0) {
                            first = last;
                        }
                        lastProgressMs = System.currentTimeMillis();
                        continue;
                    }
                    Thread.onSpinWait();
                    if ((++idle & 0xFFFF) == 0) {
                        if (failed.get() != null) {
                            throw new IllegalStateException("an Agrona producer thread failed: " + failed.get(),
                                    failed.get());
                        }
                        if (System.currentTimeMillis() - lastProgressMs > NO_PROGRESS_MS) {
                            throw new ConsumeLoop.Incomplete("no message for " + NO_PROGRESS_MS + " ms: received "
                                    + received[0] + " of " + totalMessages);
                        }
                    }
                }
                return last - first;
            });
            return new Rate(totalMessages / (Math.max(nanos, 1) / 1e9), "");
        } finally {
            stop.set(true);
            go.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
        }
    }

    /** One broadcast-agrona run: a transmitter thread, {@code peers} CopyBroadcastReceiver threads. */
    static Rate agronaBroadcast(IpcExperiment.Case c, Cores cores, boolean warmup) throws InterruptedException {
        long count = warmup ? Math.min(c.messages(), WARMUP_MESSAGES) : c.messages();
        int size = c.sizeBytes();
        UnsafeBuffer buffer = new UnsafeBuffer(
                ByteBuffer.allocateDirect(Math.toIntExact(c.capacity()) + BroadcastBufferDescriptor.TRAILER_LENGTH));
        org.agrona.concurrent.broadcast.BroadcastTransmitter transmitter =
                new org.agrona.concurrent.broadcast.BroadcastTransmitter(buffer);
        int receivers = c.peers();
        CountDownLatch ready = new CountDownLatch(receivers);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        long[] nanos = new long[receivers];
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < receivers; r++) {
            int me = r;
            Thread thread = new Thread(() -> {
                try {
                    Cores.pin("run ipc", cores.consumer());
                    org.agrona.concurrent.broadcast.BroadcastReceiver inner =
                            new org.agrona.concurrent.broadcast.BroadcastReceiver(buffer);
                    // Agrona's copy receiver wants a scratch buffer of the largest message (capacity / 8).
                    CopyBroadcastReceiver copy =
                            new CopyBroadcastReceiver(inner, new UnsafeBuffer(new byte[inner.capacity() / 8]));
                    MessageCheck check = new MessageCheck(1, 0);
                    org.agrona.concurrent.MessageHandler verify = (type, b, index, length) -> {
                        if (inner.lappedCount() != 0) {
                            throw lapped(check.received());
                        }
                        AgronaImpl.verify(check, type, b, index, length);
                    };
                    ready.countDown();
                    long first = 0;
                    long last = 0;
                    while (check.received() < count && !stop.get()) {
                        if (copy.receive(verify) > 0) {
                            last = System.nanoTime();
                            if (first == 0) {
                                first = last;
                            }
                        } else {
                            Thread.onSpinWait();
                        }
                        if (inner.lappedCount() != 0) {
                            throw lapped(check.received());
                        }
                    }
                    if (check.received() == count) {
                        nanos[me] = Math.max(last - first, 1);
                    }
                } catch (RuntimeException | Error e) {
                    failed.compareAndSet(null, e);
                }
            }, "run-ipc-agrona-receiver-" + (r + 1));
            threads.add(thread);
            thread.start();
        }
        try {
            Cores.onPinnedThread("run ipc", "transmitter", cores.producer(), () -> {
                ready.await();
                byte[] message = new byte[size];
                UnsafeBuffer src = new UnsafeBuffer(message);
                for (long i = 0; i < count; i++) {
                    TestPattern.fill(message, i, size);
                    transmitter.transmit(1, src, 0, size);
                }
                return null;
            });
            long deadline = System.currentTimeMillis() + NO_PROGRESS_MS;
            for (Thread thread : threads) {
                thread.join(Math.max(1, deadline - System.currentTimeMillis()));
            }
        } finally {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
        }
        if (failed.get() instanceof RuntimeException e) {
            throw e;
        }
        if (failed.get() instanceof Error e) {
            throw e;
        }
        List<Double> rates = new ArrayList<>();
        for (long n : nanos) {
            if (n <= 0) {
                throw new ConsumeLoop.Incomplete("a receiver thread did not receive all " + count + " messages in "
                        + NO_PROGRESS_MS + " ms");
            }
            rates.add(count / (n / 1e9));
        }
        return slowest(rates);
    }

    // ---- peers ------------------------------------------------------------------------------

    /**
     * A reader's watch on its writers while nothing comes: fails when a writer process failed,
     * when every writer exited before the last message, or after {@link #NO_PROGRESS_MS} without one.
     */
    static final class Watch {
        private final String writers;
        private final long count;
        private final Peers peers;
        private long idle;
        private boolean exited;
        private long seen = -1;
        private long sinceMs = System.currentTimeMillis();

        Watch(String writers, long count, Peers peers) {
            this.writers = writers;
            this.count = count;
            this.peers = peers;
        }

        void idle(long received) {
            Thread.onSpinWait();
            if ((++idle & 0xFFFF) != 0) {
                return;
            }
            long now = System.currentTimeMillis();
            if (received != seen) {
                seen = received;
                sinceMs = now;
            }
            if (peers != null && peers.allExited()) {
                if (exited) {
                    throw new ConsumeLoop.Incomplete("the " + writers + " exited after " + received + " of " + count
                            + " messages");
                }
                exited = true;
            }
            if (now - sinceMs > NO_PROGRESS_MS) {
                throw new ConsumeLoop.Incomplete("the " + writers + " sent nothing for " + NO_PROGRESS_MS + " ms ("
                        + received + " of " + count + " messages received)");
            }
        }
    }

    /**
     * The peer processes of one run ({@code run ipc peer ROLE ...} of this sidecar, {@code run
     * ipc-peer ROLE ...} of the Rust binary): each prints {@code ready}, then waits for
     * {@code go}. Closing destroys those not finished, so that no peer outlives a failed
     * measurement.
     */
    static final class Peers implements AutoCloseable {
        private final List<Process> processes = new ArrayList<>();
        private final List<String> roles = new ArrayList<>();
        private final List<BufferedReader> outs = new ArrayList<>();
        private boolean finished;

        /** Starts the peer {@code ARGS} (a role and its arguments) in a {@code language} process. */
        void start(String language, Path sympathy, List<String> args, String role) throws IOException {
            Process process;
            if (language.equals("rust")) {
                List<String> command = new ArrayList<>(List.of(sympathy.toString(), "run", "ipc-peer"));
                command.addAll(args);
                process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            } else {
                List<String> command = new ArrayList<>(List.of("run", "ipc", "peer"));
                command.addAll(args);
                process = ChildJvm.start(command);
            }
            processes.add(process);
            roles.add(language + " " + role);
            outs.add(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)));
        }

        /** Waits for every peer's {@code ready} line. */
        void awaitReady() throws IOException, InterruptedException {
            for (int p = 0; p < processes.size(); p++) {
                String line;
                do {
                    line = outs.get(p).readLine();
                    if (line == null) {
                        int rc = processes.get(p).waitFor();
                        throw new IllegalStateException("the " + roles.get(p) + " process exited before it was ready"
                                + " (exit status " + rc + "; its message is above)");
                    }
                } while (!line.trim().equals("ready"));
            }
        }

        /** Tells every peer to start. */
        void go() throws IOException {
            for (Process process : processes) {
                OutputStream in = process.getOutputStream();
                in.write("go\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
            }
        }

        /** Whether every peer has exited; fails when one failed. */
        boolean allExited() {
            boolean all = true;
            for (int p = 0; p < processes.size(); p++) {
                Process process = processes.get(p);
                if (process.isAlive()) {
                    all = false;
                } else if (process.exitValue() != 0) {
                    throw new IllegalStateException("the " + roles.get(p) + " process failed with exit status "
                            + process.exitValue() + " (see its message above)");
                }
            }
            return all;
        }

        /** Waits for every peer; returns the rest of each one's standard output, in start order. */
        List<String> finish() throws IOException, InterruptedException {
            List<String> outputs = new ArrayList<>();
            for (int p = 0; p < processes.size(); p++) {
                StringBuilder out = new StringBuilder();
                String line;
                while ((line = outs.get(p).readLine()) != null) {
                    out.append(line).append('\n');
                }
                int rc = processes.get(p).waitFor();
                if (rc != 0) {
                    throw new IllegalStateException("the " + roles.get(p) + " process failed with exit status " + rc
                            + " (see its message above)");
                }
                outputs.add(out.toString());
            }
            finished = true;
            return outputs;
        }

        @Override
        public void close() {
            if (finished) {
                return;
            }
            for (Process process : processes) {
                process.destroyForcibly();
            }
            for (Process process : processes) {
                try {
                    process.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
