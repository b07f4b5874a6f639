package dev.sympathy.ring;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The var handles every access to the mapped file goes through: little-endian, naturally
 * aligned (the mapping is page-aligned and every shared field sits on a multiple of its size,
 * which the atomic access modes require). Coordinates are {@code (MemorySegment, long offset)}.
 *
 * <p>Every handle has exact invocation behaviour ({@link VarHandle#withInvokeExactBehavior}): a
 * call site whose types are not exactly the handle's ({@code int} offset, an unused result, a
 * missing cast) throws {@link java.lang.invoke.WrongMethodTypeException} in the tests instead of
 * taking the generic path of an {@code asType} adaptation at run time. Hence the
 * {@code (long)} offsets and the casts of every result, used or not.
 *
 * <p>Naming the intent at the call site, as JCTools does: {@code getAcquire} pairs with
 * {@code setRelease}; each pair carries the same {@code SYNC POINT} comment on both sides.
 */
final class SharedMemory {
    private SharedMemory() {}

    static final ValueLayout.OfInt INT_LAYOUT = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG_LAYOUT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** i32 fields: record length and type, ready, version, pids. */
    static final VarHandle INT = INT_LAYOUT.varHandle().withInvokeExactBehavior();
    /** i64 fields: positions, heartbeats, capacity, magic. */
    static final VarHandle LONG = LONG_LAYOUT.varHandle().withInvokeExactBehavior();
    /** Payload words at any offset (plain access only): short copies. */
    static final VarHandle INT_UNALIGNED =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle().withInvokeExactBehavior();
    static final VarHandle LONG_UNALIGNED =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle().withInvokeExactBehavior();

    /**
     * True when a process with this pid exists and has not exited (the Rust ring's
     * {@code pid_alive}): {@link ProcessHandle} finds it and {@code /proc/<pid>/stat} does not
     * show it as a zombie ({@code Z}) or dead ({@code X}). A zombie has exited, only its exit
     * status waits for its parent; {@code ProcessHandle.isAlive} reports it alive. Without a
     * readable {@code /proc} the {@code ProcessHandle} answer stands.
     */
    static boolean processAlive(long pid) {
        if (pid <= 0 || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        byte[] stat;
        try {
            stat = Files.readAllBytes(Path.of("/proc/" + pid + "/stat"));
        } catch (NoSuchFileException e) {
            return !Files.isDirectory(Path.of("/proc/self")); // gone since, unless there is no /proc
        } catch (IOException | SecurityException e) {
            return true;
        }
        int state = stateLetter(stat);
        return state != 'Z' && state != 'X' && state != 'x';
    }

    /**
     * The state letter of the text of a {@code /proc/<pid>/stat} file, or -1: the first
     * non-blank byte after the last {@code ')'} (the command name before it, in parentheses,
     * may itself hold {@code ')'} and blanks).
     */
    static int stateLetter(byte[] stat) {
        int close = -1;
        for (int i = stat.length - 1; i >= 0; i--) {
            if (stat[i] == ')') {
                close = i;
                break;
            }
        }
        if (close < 0) {
            return -1;
        }
        for (int i = close + 1; i < stat.length; i++) {
            if (!Character.isWhitespace(stat[i])) {
                return stat[i] & 0xFF;
            }
        }
        return -1;
    }
}
