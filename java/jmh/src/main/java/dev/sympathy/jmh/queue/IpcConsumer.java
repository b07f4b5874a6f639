package dev.sympathy.jmh.queue;

import dev.sympathy.jmh.support.Pinning;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code p1c1-ipc}'s consumer: a second JVM that maps the producer's {@link P1C1FileQueue},
 * pinned to the consumer's core, and takes one value per poll (as {@code p1c1-offheap} does),
 * checking each against its position in the sequence, as Rust's consumer process
 * ({@code sympathy run queue-peer}) does. The producer's JVM starts it ({@link #start}), sees it
 * alive ({@link #checkAlive}) and collects its verdict ({@link #finish}).
 *
 * <p>The child runs {@link #main}: {@code <queue file> <core> <cross-core|same-core> <pinned|unpinned>}.
 * It refuses to run unpinned beside a pinned producer (the last argument is the producer's
 * {@link Pinning#mode()}), pins its thread to {@code core} (an absolute core: the child inherits
 * the affinity of the thread that starts it, so it is told which core), claims the consumer role
 * and polls until the producer has released its role and the queue is empty; then it prints
 * {@code received=<n>} and exits 0. A value out of sequence is an error on stderr and exit status
 * 1; the death of the producer's JVM ends it too (status 3). When the queue is empty it waits as
 * the benchmark's threads do ({@link QueueThroughput#SPINS_WHEN_WAITING} spin hints cross-core,
 * a yield same-core), and every {@value #LIVENESS_EVERY} waits looks whether the producer left.
 *
 * <p>The child JVM gets the producer JVM's flags (those of the JMH fork, less its agents and the
 * runner's extras file), its class path and its {@code java} binary: the seed's two JVMs.
 *
 * <pre>{@code
 * IpcConsumer child = IpcConsumer.start(queue, Pinning.availableCore(1), false);
 * ... queue.offer(...) ...; child.checkAlive();
 * child.finish(queue);   // releases the producer role; throws unless every value arrived in order
 * }</pre>
 */
public final class IpcConsumer {
    /** How long the producer waits for the child to claim the consumer role (a JVM start). */
    static final long ATTACH_TIMEOUT_MS = 30_000;
    /** How long {@link #finish} waits for the child to drain the queue and exit. */
    static final long FINISH_TIMEOUT_MS = 30_000;
    /** Waits on an empty queue between looks at whether the producer has left (Rust's LIVENESS_EVERY). */
    static final int LIVENESS_EVERY = 1 << 12;
    private static final int VALUES = Queues.POOL - 1;

    private final Process process;
    private final P1C1FileQueue queue;
    /**
     * The child's stdout: a file, not a pipe, so that nothing the child's JVM prints there while
     * the run goes on (a diagnostic flag's output) can fill a pipe nobody reads and stall it.
     */
    private final Path out;

    private IpcConsumer(Process process, P1C1FileQueue queue, Path out) {
        this.process = process;
        this.queue = queue;
        this.out = out;
    }

    /**
     * Starts the consumer JVM on {@code queue}'s file, pinned to {@code core}, spinning
     * ({@code sameCore} false) or yielding while the queue is empty, and waits until it has
     * claimed the consumer role.
     *
     * @throws IllegalStateException when the child cannot start, exits before it attaches (its
     *     error is on stderr) or does not attach within {@value #ATTACH_TIMEOUT_MS} ms
     */
    public static IpcConsumer start(P1C1FileQueue queue, int core, boolean sameCore) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(childJvmFlags(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(IpcConsumer.class.getName());
        command.add(queue.path().toString());
        command.add(Integer.toString(core));
        command.add(sameCore ? "same-core" : "cross-core");
        command.add(Pinning.mode());
        final Process process;
        final Path out;
        try {
            out = Files.createTempFile("sympathy-ipc-consumer-", ".out");
            out.toFile().deleteOnExit();
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(out.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("p1c1-ipc: cannot start the consumer JVM: " + e.getMessage(), e);
        }
        final IpcConsumer child = new IpcConsumer(process, queue, out);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACH_TIMEOUT_MS);
        while (!queue.consumerAttached()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("p1c1-ipc: the consumer JVM exited with status " + process.exitValue()
                        + " before it attached (see its error above)");
            }
            if (System.nanoTime() > deadline) {
                child.kill();
                throw new IllegalStateException("p1c1-ipc: the consumer JVM did not attach within " + ATTACH_TIMEOUT_MS + " ms");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                child.kill();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("p1c1-ipc: interrupted while waiting for the consumer JVM", e);
            }
        }
        return child;
    }

    /**
     * The flags of this JVM a child gets: all of them but agents, the debugger, JMH's compile
     * command file (for its generated classes) and the runner's extras file (the child reports
     * no facts).
     *
     * <pre>{@code
     * childJvmFlags(List.of("-Xmx1g", "-javaagent:a.jar", "-Dsympathy.extras=/tmp/x")) // [-Xmx1g]
     * }</pre>
     */
    static List<String> childJvmFlags(List<String> flags) {
        return flags.stream()
                .filter(f -> !f.startsWith("-javaagent:") && !f.startsWith("-agentlib:") && !f.startsWith("-agentpath:")
                        && !f.startsWith("-Xrunjdwp") && !f.startsWith("-XX:CompileCommandFile=")
                        && !f.startsWith("-Dsympathy.extras="))
                .toList();
    }

    /**
     * Throws unless the child is running: the benchmark's run fails loudly when its consumer dies.
     *
     * @throws IllegalStateException naming the child's exit status
     */
    public void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("p1c1-ipc: the consumer JVM exited with status " + process.exitValue()
                    + " during the run, after " + queue.consumed() + " values (see its error above)");
        }
    }

    /**
     * Ends the run: releases the producer's role, waits for the child to drain the queue and
     * exit, and checks its verdict: exit status 0 and {@code received} equal to the values the
     * producer published.
     *
     * @return the values the child received
     * @throws IllegalStateException when the child failed, did not exit in time, or received
     *     another number of values than were sent
     */
    public long finish() {
        queue.release();
        try {
            if (!process.waitFor(FINISH_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                kill();
                throw new IllegalStateException("p1c1-ipc: the consumer JVM did not finish within " + FINISH_TIMEOUT_MS
                        + " ms of the producer's end (" + queue.consumed() + " of " + queue.published() + " values taken)");
            }
            final String printed = Files.readString(out, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("p1c1-ipc: the consumer JVM failed with exit status " + process.exitValue()
                        + " (see its error above)");
            }
            final long received = received(printed);
            if (received != queue.published()) {
                throw new IllegalStateException("p1c1-ipc: the consumer JVM received " + received + " values, the producer sent "
                        + queue.published());
            }
            return received;
        } catch (IOException e) {
            throw new IllegalStateException("p1c1-ipc: cannot read the consumer JVM's verdict: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("p1c1-ipc: interrupted while waiting for the consumer JVM", e);
        }
    }

    /** The number of a {@code received=<n>} line. */
    static long received(String output) {
        for (String line : output.split("\n")) {
            if (line.startsWith("received=")) {
                return Long.parseLong(line.substring("received=".length()).strip());
            }
        }
        throw new IllegalStateException("p1c1-ipc: the consumer JVM printed no received= line: " + output.strip());
    }

    /** Ends the child at once (after a failure on the producer's side). */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(FINISH_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(out);
        } catch (IOException ignored) {
            // a temporary file; deleteOnExit tries again
        }
    }

    /** The child JVM: {@code <queue file> <core> <cross-core|same-core> <pinned|unpinned>}. */
    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: IpcConsumer <queue file> <core> <cross-core|same-core> <pinned|unpinned>");
            System.exit(2);
        }
        final long received;
        try {
            received = consume(Path.of(args[0]), Integer.parseInt(args[1]), switch (args[2]) {
                case "cross-core" -> false;
                case "same-core" -> true;
                default -> throw new IllegalArgumentException("unknown placement '" + args[2] + "'; use cross-core or same-core");
            }, args[3]);
        } catch (RuntimeException e) {
            System.err.println("error: p1c1-ipc consumer JVM: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.out.println("received=" + received);
        System.out.flush();
        System.exit(0);
    }

    /**
     * Pins, attaches and consumes until the producer has left and the queue is empty; returns how
     * many values arrived, every one in sequence.
     */
    static long consume(Path file, int core, boolean sameCore, String producerPinning) {
        if (!Pinning.mode().equals(producerPinning)) {
            throw new IllegalStateException("the consumer JVM would run " + Pinning.mode() + " beside a " + producerPinning
                    + " producer (the native pinning library did not load here)");
        }
        Pinning.pin(core);
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> {
            System.err.println("error: p1c1-ipc consumer JVM: the producer's JVM (pid " + parent.pid() + ") is gone");
            Runtime.getRuntime().halt(3);
        }));
        final P1C1FileQueue queue = P1C1FileQueue.attachConsumer(file);
        try {
            return drainUntilTheProducerLeaves(queue, sameCore);
        } finally {
            try {
                queue.close();
            } catch (IOException e) {
                System.err.println("p1c1-ipc consumer JVM: closing the queue: " + e.getMessage());
            }
        }
    }

    /** The consumer's loop: one poll per value, each checked against its sequence number. */
    static long drainUntilTheProducerLeaves(P1C1FileQueue queue, boolean sameCore) {
        long expected = 0;
        int waits = 0;
        while (true) {
            final int value = queue.poll();
            if (value != IntQueue.EMPTY) {
                if (value != (int) (expected & VALUES)) {
                    throw outOfSequence(expected, value);
                }
                expected++;
                continue;
            }
            if (sameCore) {
                Thread.yield();
            } else {
                for (int i = 0; i < QueueThroughput.SPINS_WHEN_WAITING; i++) {
                    Thread.onSpinWait();
                }
            }
            if (++waits % LIVENESS_EVERY == 0 && !queue.producerAttached()) {
                // the producer's last tail store came before its release of the role: what it
                // sent is all visible now
                int last;
                while ((last = queue.poll()) != IntQueue.EMPTY) {
                    if (last != (int) (expected & VALUES)) {
                        throw outOfSequence(expected, last);
                    }
                    expected++;
                }
                return expected;
            }
        }
    }

    private static IllegalStateException outOfSequence(long expected, int value) {
        return new IllegalStateException("message " + expected + " arrived as " + value + " (lost, duplicated or reordered)");
    }
}
