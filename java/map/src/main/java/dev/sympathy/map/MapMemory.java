package dev.sympathy.map;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The var handles every access to the mapped file goes through: little-endian, naturally
 * aligned, with exact invocation behaviour (a call site whose types are not exactly the
 * handle's throws in the tests instead of taking a slow generic path). Coordinates are
 * {@code (MemorySegment, long offset)}. {@code getAcquire} pairs with {@code setRelease}; each
 * pair carries the same {@code SYNC POINT} comment on both sides.
 */
final class MapMemory {
    private MapMemory() {}

    /** u32 fields: version, ready, lengths, value format. */
    static final VarHandle INT =
            ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle().withInvokeExactBehavior();
    /** u64 fields: slots, counters, record keys, the writer word. */
    static final VarHandle LONG =
            ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle().withInvokeExactBehavior();
}
