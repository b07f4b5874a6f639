package dev.sympathy.ring;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The var handles every access to the mapped file goes through: little-endian, naturally
 * aligned (the mapping is page-aligned and every shared field sits on a multiple of its size,
 * which the atomic access modes require). Coordinates are {@code (MemorySegment, long offset)}.
 *
 * <p>Naming the intent at the call site, as JCTools does: {@code getAcquire} pairs with
 * {@code setRelease}; each pair carries the same {@code SYNC POINT} comment on both sides.
 */
final class SharedMemory {
    private SharedMemory() {}

    static final ValueLayout.OfInt INT_LAYOUT = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG_LAYOUT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** i32 fields: record length and type, ready, version, pids. */
    static final VarHandle INT = INT_LAYOUT.varHandle();
    /** i64 fields: positions, heartbeats, capacity, magic. */
    static final VarHandle LONG = LONG_LAYOUT.varHandle();
    /** Payload words at any offset (plain access only): short copies. */
    static final VarHandle INT_UNALIGNED =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();
    static final VarHandle LONG_UNALIGNED =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

    /** True when a process with this pid exists and has not exited. */
    static boolean processAlive(long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
