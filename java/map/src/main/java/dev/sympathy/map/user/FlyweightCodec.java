package dev.sympathy.map.user;

import dev.sympathy.map.MapDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The flyweight layout of a user (value format 1 of docs/map-layout.md, the Rust
 * {@code FlyweightCodec}): fixed offsets, the friends in place, read without decoding by
 * {@link UserView}.
 *
 * <pre>
 *   0 id (u64)   8 registered_ms (i64)   16 last_login_ms (i64)
 *  24 friend_count (u16)   26 name_length (u8)   27 email_length (u8)
 *  28 country (2 ASCII bytes)   30 status (u8)   31 reserved (u8, 0)
 *  32 friends: friend_count x u64, then the name's bytes, then the e-mail's (UTF-8)
 * </pre>
 */
public final class FlyweightCodec implements UserCodec {
    /** The one instance (it has no state). */
    public static final FlyweightCodec INSTANCE = new FlyweightCodec();

    /** u64 id. */
    public static final int ID_OFFSET = 0;
    /** i64 registration time. */
    public static final int REGISTERED_OFFSET = 8;
    /** i64 last login time. */
    public static final int LAST_LOGIN_OFFSET = 16;
    /** u16 number of friends. */
    public static final int FRIEND_COUNT_OFFSET = 24;
    /** u8 bytes of the name. */
    public static final int NAME_LENGTH_OFFSET = 26;
    /** u8 bytes of the e-mail. */
    public static final int EMAIL_LENGTH_OFFSET = 27;
    /** Two ASCII bytes of the country. */
    public static final int COUNTRY_OFFSET = 28;
    /** u8 status code. */
    public static final int STATUS_OFFSET = 30;
    /** The friends' ids start here. */
    public static final int FRIENDS_OFFSET = 32;
    /** Bytes before the friends. */
    public static final int FIXED_LENGTH = 32;
    /** The most friends a user may have. */
    public static final int MAX_FRIENDS = 0xFFFF;
    /** The longest name or e-mail, in bytes. */
    public static final int MAX_TEXT_LENGTH = 0xFF;

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private FlyweightCodec() {}

    @Override
    public int format() {
        return MapDescriptor.VALUE_FORMAT_USER_FLYWEIGHT;
    }

    @Override
    public int encodedLength(User user) {
        int name = utf8Length(user.name());
        int email = utf8Length(user.email());
        if (name > MAX_TEXT_LENGTH || email > MAX_TEXT_LENGTH) {
            throw new UserCodecException("name (" + name + " bytes) or e-mail (" + email + " bytes) over 255 bytes");
        }
        if (user.friends().length > MAX_FRIENDS) {
            throw new UserCodecException(user.friends().length + " friends, over 65535");
        }
        return FIXED_LENGTH + 8 * user.friends().length + name + email;
    }

    @Override
    public void encode(User user, MemorySegment out, long offset) {
        byte[] name = user.name().getBytes(StandardCharsets.UTF_8);
        byte[] email = user.email().getBytes(StandardCharsets.UTF_8);
        String country = user.country();
        if (country.length() != 2 || !isCapital(country.charAt(0)) || !isCapital(country.charAt(1))) {
            throw new UserCodecException("country \"" + country + "\" is not two capital letters");
        }
        out.set(LONG, offset + ID_OFFSET, user.id());
        out.set(LONG, offset + REGISTERED_OFFSET, user.registeredMs());
        out.set(LONG, offset + LAST_LOGIN_OFFSET, user.lastLoginMs());
        out.set(SHORT, offset + FRIEND_COUNT_OFFSET, (short) user.friends().length);
        out.set(ValueLayout.JAVA_BYTE, offset + NAME_LENGTH_OFFSET, (byte) name.length);
        out.set(ValueLayout.JAVA_BYTE, offset + EMAIL_LENGTH_OFFSET, (byte) email.length);
        out.set(ValueLayout.JAVA_BYTE, offset + COUNTRY_OFFSET, (byte) country.charAt(0));
        out.set(ValueLayout.JAVA_BYTE, offset + COUNTRY_OFFSET + 1, (byte) country.charAt(1));
        out.set(ValueLayout.JAVA_BYTE, offset + STATUS_OFFSET, (byte) user.status().code());
        out.set(ValueLayout.JAVA_BYTE, offset + 31, (byte) 0);
        long at = offset + FRIENDS_OFFSET;
        for (long friend : user.friends()) {
            out.set(LONG, at, friend);
            at += 8;
        }
        MemorySegment.copy(name, 0, out, ValueLayout.JAVA_BYTE, at, name.length);
        MemorySegment.copy(email, 0, out, ValueLayout.JAVA_BYTE, at + name.length, email.length);
    }

    @Override
    public User decode(MemorySegment in, long offset, int length) {
        UserView view = new UserView().wrap(in, offset, length);
        long[] friends = new long[view.friendCount()];
        for (int k = 0; k < friends.length; k++) {
            friends[k] = view.friend(k);
        }
        return new User(view.id(), view.name(), view.email(), view.country(), view.status(), view.registeredMs(),
                view.lastLoginMs(), friends);
    }

    private static boolean isCapital(char c) {
        return c >= 'A' && c <= 'Z';
    }

    /** The UTF-8 length of {@code s} without encoding it. */
    static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
