package dev.sympathy.jcstress;

import dev.sympathy.ring.MessageHandler;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** The messages the tests send and how a consumer grades what it was handed. */
final class Messages {
    private Messages() {}

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    static final int TYPE = 7;
    /** The two words of the 16-byte test message. */
    static final long FIRST = 0x0807_0605_0403_0201L;
    static final long SECOND = 0x1817_1615_1413_1211L;
    static final byte[] MESSAGE = bytes(FIRST, SECOND);

    static byte[] bytes(long... words) {
        byte[] b = new byte[8 * words.length];
        MemorySegment bytes = MemorySegment.ofArray(b);
        for (int i = 0; i < words.length; i++) {
            bytes.set(LONG, 8L * i, words[i]);
        }
        return b;
    }

    /**
     * Grades the 16-byte test message: bit 0 set when the first word is right, bit 1 when the
     * second is; 3 is the whole message, -1 a wrong type or length.
     */
    static int grade(int typeId, MemorySegment buffer, long offset, int length) {
        if (typeId != TYPE || length != 16) {
            return -1;
        }
        int bits = 0;
        if (buffer.get(LONG, offset) == FIRST) {
            bits |= 1;
        }
        if (buffer.get(LONG, offset + 8) == SECOND) {
            bits |= 2;
        }
        return bits;
    }

    /** A handler that stores the grade of the one message it is handed. */
    static final class Grader implements MessageHandler {
        int grade;

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            grade = grade(typeId, buffer, offset, length);
        }
    }
}
