package dev.sympathy.map;

import java.lang.foreign.MemorySegment;

/**
 * Encodes a value in place, into the record {@link MapWriter#putWith} appends: {@code length}
 * bytes of {@code data} from {@code offset} (zero copy: a codec writes straight into the file).
 */
@FunctionalInterface
public interface ValueFiller {
    /** Writes the value's bytes at {@code data[offset, offset + length)}. */
    void fill(MemorySegment data, long offset, int length);
}
