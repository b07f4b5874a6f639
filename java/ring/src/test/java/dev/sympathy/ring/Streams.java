package dev.sympathy.ring;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The test streams of the many-to-one and broadcast tests: stream {@code s} (a producer, or the
 * one transmitter) sends message {@code i} of a size drawn from a seed, whose byte {@code k} is
 * {@code (s * 57 + i * 31 + k) mod 256}; its first 8 bytes (when it has them) carry {@code i}
 * itself, little-endian, so a receiver that skipped messages (a lap) reads where it is.
 */
final class Streams {
    private Streams() {}

    /** Byte {@code k} of message {@code i} of stream {@code s}. */
    static byte expected(int s, long i, int k) {
        if (k < 8) {
            return (byte) (i >>> (8 * k));
        }
        return (byte) (s * 57 + i * 31 + k);
    }

    /** {@code count} sizes in {@code [min, max]} drawn from {@code seed}. */
    static int[] sizes(long seed, int count, int min, int max) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] sizes = new int[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = min + random.nextInt(max - min + 1);
        }
        return sizes;
    }

    /** Message {@code i} of stream {@code s}, {@code size} bytes, into {@code dst[0, size)}. */
    static void fill(byte[] dst, int s, long i, int size) {
        for (int k = 0; k < size; k++) {
            dst[k] = expected(s, i, k);
        }
    }

    /** Message {@code i} of stream {@code s}, {@code size} bytes, in place at {@code offset}. */
    static void fill(MemorySegment dst, long offset, int s, long i, int size) {
        for (int k = 0; k < size; k++) {
            dst.set(ValueLayout.JAVA_BYTE, offset + k, expected(s, i, k));
        }
    }

    /** Message {@code i} of stream {@code s}, {@code size} bytes, in place at {@code offset} of an Agrona buffer. */
    static void fill(org.agrona.MutableDirectBuffer dst, int offset, int s, long i, int size) {
        for (int k = 0; k < size; k++) {
            dst.putByte(offset + k, expected(s, i, k));
        }
    }

    /** Throws unless {@code buffer[offset, offset + length)} is message {@code i} of stream {@code s}. */
    static void check(int s, long i, MemorySegment buffer, long offset, int length) {
        for (int k = 0; k < length; k++) {
            byte b = buffer.get(ValueLayout.JAVA_BYTE, offset + k);
            if (b != expected(s, i, k)) {
                throw new AssertionError("stream " + s + " message " + i + ": byte " + k + " is " + b + ", expected "
                        + expected(s, i, k));
            }
        }
    }

    /** Throws unless {@code buffer[offset, offset + length)} is message {@code i} of stream {@code s}. */
    static void check(int s, long i, DirectBuffer buffer, int offset, int length) {
        for (int k = 0; k < length; k++) {
            byte b = buffer.getByte(offset + k);
            if (b != expected(s, i, k)) {
                throw new AssertionError("stream " + s + " message " + i + ": byte " + k + " is " + b + ", expected "
                        + expected(s, i, k));
            }
        }
    }

    /** The index message of at least 8 bytes carries in its first 8. */
    static long indexOf(MemorySegment buffer, long offset) {
        return buffer.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), offset);
    }

    /** The index message of at least 8 bytes carries in its first 8 (Agrona's buffers are little-endian). */
    static long indexOf(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** An Agrona view of {@code ring}'s region (record area and trailer) at file offset 4096. */
    static UnsafeBuffer agronaRegion(RingFile ring) {
        return new UnsafeBuffer(ring.segment().address() + RingDescriptor.HEADER_LENGTH,
                ring.capacity() + ring.kind().trailerLength());
    }
}
