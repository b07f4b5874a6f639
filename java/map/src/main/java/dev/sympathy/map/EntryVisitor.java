package dev.sympathy.map;

import java.lang.foreign.MemorySegment;

/** Sees one entry of {@link MapFile#forEach}: its key and its value in place. */
@FunctionalInterface
public interface EntryVisitor {
    /** The value is {@code data[offset, offset + length)}, valid while the map is open. */
    void visit(long key, MemorySegment data, long offset, int length);
}
