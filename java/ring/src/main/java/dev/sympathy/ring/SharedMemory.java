package dev.sympathy.ring;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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

    /** True when a process with this pid exists and has not exited ({@link dev.sympathy.mapped.Processes#alive}). */
    static boolean processAlive(long pid) {
        return dev.sympathy.mapped.Processes.alive(pid);
    }
}
