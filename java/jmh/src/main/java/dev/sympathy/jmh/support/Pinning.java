package dev.sympathy.jmh.support;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Thread pinning as a pluggable hook, so that benchmarks never claim a pin they did not make.
 *
 * <p>The real pin comes from the JNI module's {@code pinCurrentThread(int core)} (a static method
 * returning {@code void} or {@code boolean}, throwing when the pin fails). Its class is looked up
 * reflectively, by default {@value #DEFAULT_CLASS}, or the class named by the system property
 * {@code sympathy.pinning.class}. When no such class is on the class path, or its native library
 * ({@code libsympathy_jni}, found on {@code java.library.path}) cannot be loaded, {@link #pin(int)}
 * does nothing and {@link #mode()} says {@code "unpinned"}: the runner writes that into every
 * result's params, so an unpinned figure is always labelled as one. Once the hook is found, a pin
 * that fails is an error, never a silent fallback.
 *
 * <pre>{@code
 * Pinning.pin(0);                  // pins, or does nothing when no native hook exists;
 *                                  // either way the results' parity fact "pinned" says which
 * String mode = Pinning.mode();    // "pinned" or "unpinned"
 * }</pre>
 */
public final class Pinning {
    /** The class expected to own {@code pinCurrentThread(int)} once the native module exists. */
    public static final String DEFAULT_CLASS = "dev.sympathy.jni.Affinity";

    private static final MethodHandle PIN = lookUp();

    /**
     * The cores this process may use, read once when this class is initialised, which happens
     * before any thread is pinned through it. ({@code Runtime.availableProcessors()} reads the
     * <em>calling thread's</em> affinity on Linux: after {@code pin(0)} it says 1, and a thread
     * that asked it then would put every worker on core 0 beside itself.)
     */
    private static final int PROCESS_CORES = Runtime.getRuntime().availableProcessors();

    private Pinning() {
    }

    /**
     * The cores the process may use, ascending, as Rust's runs list theirs (its main thread's
     * affinity mask: {@code Cpus_allowed_list} of {@code /proc/self/status}, read when this class
     * is initialised, before any pin); {@code 0 .. processCores()-1} where that file cannot be read.
     */
    private static final int[] AVAILABLE = availableCores();

    /** The cores the process may use, whatever the calling thread is pinned to. */
    public static int processCores() {
        return PROCESS_CORES;
    }

    /**
     * Pins the calling thread to the {@code nth} core the process may use (counting from 0, wrapping
     * round), the core a Rust run of the same work takes: the first for a single-threaded kernel,
     * the first two for a pair of threads. The parity fact {@code pinned} records the outcome.
     */
    public static void pinToAvailable(int nth) {
        pin(availableCore(nth));
    }

    /**
     * The {@code nth} core the process may use (counting from 0, wrapping round), as read when this
     * class was initialised: the core {@link #pinToAvailable} pins to, named for another process (a
     * child JVM inherits the affinity of the thread that starts it, so it is told its core).
     */
    public static int availableCore(int nth) {
        return AVAILABLE[Math.floorMod(nth, AVAILABLE.length)];
    }

    /** The cores of a {@code Cpus_allowed_list} value such as {@code 0-3,8,10-11}, ascending. */
    static int[] parseCoreList(String list) {
        return java.util.Arrays.stream(list.trim().split(","))
                .filter(part -> !part.isBlank())
                .flatMapToInt(part -> {
                    final String[] ends = part.trim().split("-");
                    final int from = Integer.parseInt(ends[0]);
                    final int to = ends.length > 1 ? Integer.parseInt(ends[1]) : from;
                    return java.util.stream.IntStream.rangeClosed(from, to);
                })
                .sorted().distinct().toArray();
    }

    private static int[] availableCores() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    final int[] cores = parseCoreList(line.substring("Cpus_allowed_list:".length()));
                    if (cores.length > 0) {
                        return cores;
                    }
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            // fall through: count from 0 as the JVM does
        }
        return java.util.stream.IntStream.range(0, PROCESS_CORES).toArray();
    }

    /** {@code "pinned"} when a native pinning hook was found, else {@code "unpinned"}. */
    public static String mode() {
        return PIN == null ? "unpinned" : "pinned";
    }

    /**
     * Pins the calling thread to {@code core} through the native hook.
     *
     * @throws IllegalStateException when the hook exists and reports a failed pin
     */
    public static void pin(int core) {
        if (PIN == null) {
            Extras.fact("pinned", false);
            return;
        }
        final Object result;
        try {
            result = PIN.invoke(core);
        } catch (Throwable t) {
            throw new IllegalStateException("pinning the thread to core " + core + " failed: " + t, t);
        }
        if (Boolean.FALSE.equals(result)) {
            throw new IllegalStateException("pinning the thread to core " + core
                    + " failed (pinCurrentThread returned false); check the cores available with taskset -p $$");
        }
        Extras.fact("pinned", true);
    }

    private static MethodHandle lookUp() {
        final String name = System.getProperty("sympathy.pinning.class", DEFAULT_CLASS);
        try {
            final Class<?> owner = Class.forName(name);
            if (!nativeLibraryLoads(owner)) {
                return null;
            }
            final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            for (Class<?> returns : new Class<?>[] {void.class, boolean.class}) {
                try {
                    return lookup.findStatic(owner, "pinCurrentThread", MethodType.methodType(returns, int.class))
                            .asType(MethodType.methodType(Object.class, int.class));
                } catch (NoSuchMethodException ignored) {
                    // try the next signature
                }
            }
            throw new IllegalStateException(name + " has no static pinCurrentThread(int)");
        } catch (ClassNotFoundException | IllegalAccessException absent) {
            return null;
        }
    }

    /**
     * The default hook's class loads its native library when its first method runs: initialise
     * that class now, so that a missing library means "unpinned" (and a note on stderr) instead
     * of a benchmark failing later.
     */
    private static boolean nativeLibraryLoads(Class<?> owner) {
        if (!owner.getName().equals(DEFAULT_CLASS)) {
            return true;
        }
        try {
            Class.forName("dev.sympathy.jni.NativeRing", true, owner.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError | IllegalStateException e) {
            final Throwable cause = e instanceof ExceptionInInitializerError init && init.getCause() != null ? init.getCause() : e;
            System.err.println("pinning: threads stay unpinned (results say \"pinning\":\"unpinned\"): " + cause.getMessage());
            return false;
        }
    }
}
