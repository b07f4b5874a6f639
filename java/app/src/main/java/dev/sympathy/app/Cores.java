package dev.sympathy.app;

import dev.sympathy.jni.Affinity;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The two cores a benchmark pins its ends to ({@code --cores P,C}, as {@code sympathy run ipc}
 * takes them; default {@code 0,1}), and running one end on a thread pinned to its core.
 *
 * <p>Java cannot pin threads; {@link Affinity} pins through the Rust side (core_affinity) and
 * verifies that the pin took. The pinned end runs on a thread of its own so that the main
 * thread, which starts the other end's JVM, stays unpinned: a child process inherits the
 * affinity of the thread that starts it, and a JVM whose compiler and GC threads were all
 * confined to the producer's core would measure its own warm-up, not the ring.
 *
 * <pre>{@code
 * Cores cores = Cores.parse("bench", args.string("cores", ""));
 * long written = Cores.onPinnedThread("producer", cores.producer(), () -> loop.run(ring, impl, sizes));
 * }</pre>
 */
record Cores(int producer, int consumer) {
    /** {@code P,C}, two different cores; empty means {@code 0,1}. */
    static Cores parse(String command, String spec) {
        if (spec.isEmpty()) {
            return new Cores(0, 1);
        }
        String[] parts = spec.split(",");
        if (parts.length != 2) {
            throw new UsageException(command + ": --cores expects two cores P,C (producer, consumer), got '" + spec + "'");
        }
        int p = (int) Args.parseLong(command, "cores", parts[0].trim());
        int c = (int) Args.parseLong(command, "cores", parts[1].trim());
        if (p < 0 || c < 0 || p == c) {
            throw new UsageException(command + ": --cores needs two different cores >= 0, got '" + spec + "'");
        }
        return new Cores(p, c);
    }

    /**
     * Pins a short-lived thread to each core, so that a core this machine lacks (or a missing
     * JNI library) fails the command before any child JVM starts.
     */
    Cores checked(String command) throws InterruptedException {
        onPinnedThread(command, "check", producer, () -> null);
        onPinnedThread(command, "check", consumer, () -> null);
        return this;
    }

    /** {@code P,C} as {@code params.cores} writes it. */
    String label() {
        return producer + "," + consumer;
    }

    /** Pins the calling thread to {@code core}; a failure says which core and why. */
    static void pin(String command, int core) {
        try {
            Affinity.pinCurrentThread(core);
        } catch (LinkageError e) {
            // No library: the first call fails in NativeRing's initializer (its cause says what
            // to do), later ones with NoClassDefFoundError.
            String why = e.getCause() instanceof IllegalStateException ise ? ise.getMessage()
                    : "the JNI library libsympathy_jni is not loaded (" + e + "); run through java/sidecar, "
                            + "which builds it and sets java.library.path";
            throw new IllegalStateException("pinning needs the native ring: " + why, e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("could not pin the " + command + " thread to core " + core + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code body} on a new thread pinned to {@code core} and returns its result; the
     * caller waits. Exceptions come back as thrown (checked ones wrapped in IllegalStateException).
     */
    static <T> T onPinnedThread(String command, String name, int core, Callable<T> body) throws InterruptedException {
        FutureTask<T> task = new FutureTask<>(() -> {
            pin(command, core);
            return body.call();
        });
        Thread thread = new Thread(task, command + "-" + name + "-core-" + core);
        thread.start();
        try {
            return task.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(command + ": the " + name + " thread failed: " + cause, cause);
        } finally {
            thread.join();
        }
    }
}
