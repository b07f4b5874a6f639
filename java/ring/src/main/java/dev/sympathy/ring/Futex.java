package dev.sympathy.ring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The two futex operations of the wake-up protocol ({@link WakeBlock}), through FFM: a downcall
 * to libc's variadic {@code long syscall(long number, ...)} with {@code SYS_futex} (202 on
 * x86_64, 98 on aarch64), no JNI. {@code FUTEX_WAIT}/{@code FUTEX_WAKE} without
 * {@code FUTEX_PRIVATE_FLAG}: the word lies in a shared file mapping and the peer is another
 * process. Every variadic argument is passed as a {@code long} (what {@code syscall} reads).
 *
 * <p>Elsewhere (not Linux on x86_64 or aarch64, or no native access) {@link #await} parks for
 * at most 50 µs and {@link #wake} does nothing: the waiter polls, which is still correct because
 * it re-checks the ring after every return.
 */
final class Futex {
    private Futex() {}

    private static final long FUTEX_WAIT = 0;
    private static final long FUTEX_WAKE = 1;
    private static final long FALLBACK_PARK_NANOS = 50_000;

    private static final long SYS_FUTEX = sysFutex();
    private static final MethodHandle SYSCALL = syscallHandle();

    /** Whether waits really sleep in the kernel until woken (false: the polling fallback). */
    static boolean available() {
        return SYSCALL != null;
    }

    private static long sysFutex() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return -1;
        }
        return switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> 202;
            case "aarch64" -> 98;
            default -> -1;
        };
    }

    // A restricted method: the JVM needs --enable-native-access (the sidecar and the tests pass
    // it); without it the fallback polls.
    @SuppressWarnings("restricted")
    private static MethodHandle syscallHandle() {
        if (SYS_FUTEX < 0) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("syscall").map(symbol -> linker.downcallHandle(symbol,
                    FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG),
                    Linker.Option.firstVariadicArg(1))).orElse(null);
        } catch (RuntimeException e) { // IllegalCallerException: native access denied
            return null;
        }
    }

    /**
     * Sleeps while the i32 at {@code word} equals {@code expected}, at most {@code nanos}; returns
     * on a wake, a timeout, a signal or at once when the word differs (the caller re-checks).
     * {@code timeout} is the caller's 16-byte {@code struct timespec} scratch (see {@link #timespec}).
     */
    static void await(MemorySegment word, int expected, long nanos, MemorySegment timeout) {
        if (SYSCALL == null) {
            LockSupport.parkNanos(Math.min(nanos, FALLBACK_PARK_NANOS));
            return;
        }
        try {
            timeout.set(JAVA_LONG, 0, nanos / 1_000_000_000L);
            timeout.set(JAVA_LONG, 8, nanos % 1_000_000_000L);
            long unused = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAIT, expected & 0xFFFF_FFFFL, timeout,
                    MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /** A {@code struct timespec} for {@link #await}, reused by one waiting thread (freed by the GC). */
    static MemorySegment timespec() {
        return Arena.ofAuto().allocate(16, 8);
    }

    /** Wakes every thread sleeping in {@link #await} on {@code word}, in any process. */
    static void wake(MemorySegment word) {
        if (SYSCALL == null) {
            return;
        }
        try {
            long unused = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAKE, (long) Integer.MAX_VALUE,
                    MemorySegment.NULL, MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }
}
