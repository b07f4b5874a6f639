package dev.sympathy.map.user;

import java.lang.foreign.MemorySegment;

/**
 * A way to encode users as map values: the seam where encodings plug in (the Rust
 * {@code UserCodec} trait). {@link FlyweightCodec} writes the fixed-offset layout of
 * docs/map-layout.md; {@link JavaSerializationCodec} the JDK's serialization (the seed's slow
 * baseline); an SBE codec implements the same interface with format
 * {@link dev.sympathy.map.MapDescriptor#VALUE_FORMAT_USER_SBE}. Encoding writes in place
 * (a {@link dev.sympathy.map.MapWriter#putWith} filler hands it the record's bytes).
 */
public interface UserCodec {
    /** The map's value_format for values of this codec. */
    int format();

    /**
     * Bytes {@code user} takes.
     *
     * @throws UserCodecException when the user cannot be encoded (a field too long)
     */
    int encodedLength(User user);

    /** Writes {@code user}, exactly {@link #encodedLength} bytes, at {@code out[offset]}. */
    void encode(User user, MemorySegment out, long offset);

    /**
     * Reads a user back from {@code in[offset, offset + length)}.
     *
     * @throws UserCodecException when the bytes are not a well-formed value
     */
    User decode(MemorySegment in, long offset, int length);
}
