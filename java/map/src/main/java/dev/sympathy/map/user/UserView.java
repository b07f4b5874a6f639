package dev.sympathy.map.user;

import static dev.sympathy.map.user.FlyweightCodec.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A user read in place from flyweight bytes: a reusable flyweight ({@link #wrap} moves it to
 * another record, no allocation), fixed fields at fixed offsets, the friends read one by one
 * (the Rust {@code UserView}).
 *
 * <pre>{@code
 * UserView view = new UserView();
 * long record = map.find(id);
 * view.wrap(map.data(), MapFile.valueOffset(record), map.valueLength(record));
 * long firstFriend = view.friend(0);
 * }</pre>
 */
public final class UserView {
    private MemorySegment segment;
    private long offset;
    private int length;
    private int friendCount;

    /**
     * Points this view at the value {@code segment[offset, offset + length)}, checked to be
     * exactly as long as its lengths say.
     *
     * @throws UserCodecException when the bytes are shorter or longer than their lengths imply
     */
    public UserView wrap(MemorySegment segment, long offset, int length) {
        if (length < FIXED_LENGTH) {
            throw new UserCodecException(length + " bytes, shorter than the 32 fixed bytes");
        }
        int friends = Short.toUnsignedInt(segment.get(SHORT, offset + FRIEND_COUNT_OFFSET));
        int expected = FIXED_LENGTH + 8 * friends + byteAt(segment, offset + NAME_LENGTH_OFFSET)
                + byteAt(segment, offset + EMAIL_LENGTH_OFFSET);
        if (length != expected) {
            throw new UserCodecException(length + " bytes, but its " + friends
                    + " friends, name and e-mail lengths make " + expected);
        }
        this.segment = segment;
        this.offset = offset;
        this.length = length;
        this.friendCount = friends;
        return this;
    }

    private static int byteAt(MemorySegment segment, long at) {
        return Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, at));
    }

    /** The id. */
    public long id() {
        return segment.get(LONG, offset + ID_OFFSET);
    }

    /** Registration time, ms since the Unix epoch. */
    public long registeredMs() {
        return segment.get(LONG, offset + REGISTERED_OFFSET);
    }

    /** Last login time, ms since the Unix epoch. */
    public long lastLoginMs() {
        return segment.get(LONG, offset + LAST_LOGIN_OFFSET);
    }

    /** How many friends. */
    public int friendCount() {
        return friendCount;
    }

    /** Friend {@code k} (below {@link #friendCount}). */
    public long friend(int k) {
        if (k < 0 || k >= friendCount) {
            throw new IndexOutOfBoundsException("friend " + k + " of " + friendCount);
        }
        return segment.get(LONG, offset + FRIENDS_OFFSET + 8L * k);
    }

    /** The value's length in bytes. */
    public int length() {
        return length;
    }

    private String text(long at, int bytes, String what) {
        byte[] raw = segment.asSlice(at, bytes).toArray(ValueLayout.JAVA_BYTE);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (CharacterCodingException e) {
            throw new UserCodecException("the " + what + " is not UTF-8", e);
        }
    }

    /**
     * The name.
     *
     * @throws UserCodecException when it is not UTF-8
     */
    public String name() {
        return text(offset + FRIENDS_OFFSET + 8L * friendCount, byteAt(segment, offset + NAME_LENGTH_OFFSET), "name");
    }

    /**
     * The e-mail address.
     *
     * @throws UserCodecException when it is not UTF-8
     */
    public String email() {
        long at = offset + FRIENDS_OFFSET + 8L * friendCount + byteAt(segment, offset + NAME_LENGTH_OFFSET);
        return text(at, byteAt(segment, offset + EMAIL_LENGTH_OFFSET), "e-mail");
    }

    /**
     * The country's two letters.
     *
     * @throws UserCodecException when they are not two ASCII capital letters
     */
    public String country() {
        int a = byteAt(segment, offset + COUNTRY_OFFSET);
        int b = byteAt(segment, offset + COUNTRY_OFFSET + 1);
        if (a < 'A' || a > 'Z' || b < 'A' || b > 'Z') {
            throw new UserCodecException("country bytes [" + a + ", " + b + "] are not two capital letters");
        }
        return new String(new char[] {(char) a, (char) b});
    }

    /**
     * The status.
     *
     * @throws UserCodecException for an unknown status code
     */
    public Status status() {
        int code = byteAt(segment, offset + STATUS_OFFSET);
        Status status = Status.ofCode(code);
        if (status == null) {
            throw new UserCodecException("status code " + code + " is unknown");
        }
        return status;
    }
}
