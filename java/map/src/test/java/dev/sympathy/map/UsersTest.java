package dev.sympathy.map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.map.user.FlyweightCodec;
import dev.sympathy.map.user.JavaSerializationCodec;
import dev.sympathy.map.user.Status;
import dev.sympathy.map.user.User;
import dev.sympathy.map.user.UserCodecException;
import dev.sympathy.map.user.UserJson;
import dev.sympathy.map.user.UserView;
import dev.sympathy.map.user.Users;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The user generator, codec and JSON, pinned to the same values as the Rust tests. */
class UsersTest {
    @Test
    void shouldGenerateTheUsersTheRustGeneratorDoes() {
        assertEquals(0xe220_a839_7b1d_cdafL, Users.mix(0));
        User u = Users.generate(1, 1_000_000);
        assertEquals("user1", u.name());
        assertEquals("user1@example.com", u.email());
        assertEquals("NL", u.country());
        assertEquals(Status.ACTIVE, u.status());
        assertEquals(1_532_160_822_465L, u.registeredMs());
        assertEquals(1_542_570_246_623L, u.lastLoginMs());
        assertArrayEquals(new long[] {790_915, 381_227, 39_575, 94_435, 471_666, 80_818, 254_924, 91_801}, u.friends());
        long total = 0;
        for (long i = 0; i < 100_000; i++) {
            total += Users.generate(i, 100_000).friends().length;
        }
        assertTrue(total >= 390_000 && total < 410_000, "friends average four: " + total);
    }

    @Test
    void shouldRenderTheJsonTheRustServiceDoes() {
        MemorySegment bytes = encode(Users.generate(1, 1_000_000));
        StringBuilder out = new StringBuilder();
        UserJson.write(new UserView().wrap(bytes, 0, (int) bytes.byteSize()), out);
        assertEquals("{\"id\":1,\"name\":\"user1\",\"email\":\"user1@example.com\",\"country\":\"NL\",\"status\":\"active\","
                + "\"registered_ms\":1532160822465,\"last_login_ms\":1542570246623,"
                + "\"friends\":[790915,381227,39575,94435,471666,80818,254924,91801]}", out.toString());
        StringBuilder escaped = new StringBuilder();
        UserJson.writeString("a\"b\\c\nd\u0001é", escaped);
        assertEquals("\"a\\\"b\\\\c\\u000ad\\u0001é\"", escaped.toString());
    }

    private static MemorySegment encode(User user) {
        MemorySegment bytes = Arena.ofAuto().allocate(FlyweightCodec.INSTANCE.encodedLength(user));
        FlyweightCodec.INSTANCE.encode(user, bytes, 0);
        return bytes;
    }

    @Test
    void shouldRoundTripEveryUserThroughBothCodecs() {
        JavaSerializationCodec serialization = new JavaSerializationCodec();
        for (long id = 0; id < 2000; id++) {
            User user = Users.generate(id, 2000);
            MemorySegment bytes = encode(user);
            assertEquals(user, FlyweightCodec.INSTANCE.decode(bytes, 0, (int) bytes.byteSize()));
            MemorySegment serialized = Arena.ofAuto().allocate(serialization.encodedLength(user));
            serialization.encode(user, serialized, 0);
            assertEquals(user, serialization.decode(serialized, 0, (int) serialized.byteSize()));
        }
    }

    @Test
    void shouldRefuseMalformedValues() {
        User user = Users.generate(5, 10);
        MemorySegment bytes = encode(user);
        int n = (int) bytes.byteSize();
        UserView view = new UserView();
        assertThrows(UserCodecException.class, () -> view.wrap(bytes, 0, 31));
        assertThrows(UserCodecException.class, () -> view.wrap(bytes, 0, n - 1));
        bytes.set(ValueLayout.JAVA_BYTE, FlyweightCodec.STATUS_OFFSET, (byte) 9);
        assertThrows(UserCodecException.class, () -> FlyweightCodec.INSTANCE.decode(bytes, 0, n));
        bytes.set(ValueLayout.JAVA_BYTE, FlyweightCodec.STATUS_OFFSET, (byte) 0);
        bytes.set(ValueLayout.JAVA_BYTE, FlyweightCodec.FRIENDS_OFFSET + 8L * user.friends().length, (byte) 0xff);
        UserCodecException e = assertThrows(UserCodecException.class, () -> FlyweightCodec.INSTANCE.decode(bytes, 0, n));
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }
}
