package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.map.MapFile;
import dev.sympathy.map.MapWriter;
import dev.sympathy.map.user.FlyweightCodec;
import dev.sympathy.map.user.User;
import dev.sympathy.map.user.UserView;
import dev.sympathy.map.user.Users;
import org.junit.jupiter.api.Test;

/** The lookup service's answers: the statuses and bodies the Rust service gives (its lookup test). */
class MapServiceTest {
    private static MapFile users(long n) {
        MapFile map = MapFile.inMemory(Users.mapConfig(n));
        MapWriter writer = map.writer();
        for (long id = 0; id < n; id++) {
            User user = Users.generate(id, n);
            writer.putWith(id, FlyweightCodec.INSTANCE.encodedLength(user),
                    (data, at, len) -> FlyweightCodec.INSTANCE.encode(user, data, at));
        }
        return map;
    }

    @Test
    void shouldAnswerHitsMissesAndMalformedIdsWithTheirStatuses() {
        MapFile map = users(10);
        UserView view = new UserView();
        MapService.Answer hit = MapService.lookup(map, view, "3");
        assertEquals(200, hit.status());
        assertTrue(hit.body().startsWith("{\"id\":3,\"name\":\"user3\""), hit.body());
        assertEquals(new MapService.Answer(404, "{\"error\":\"user 10 not found\"}"), MapService.lookup(map, view, "10"));
        for (String bad : new String[] {"abc", "-1", "+1", " 1", "1.0", "", "18446744073709551616", "0x10"}) {
            MapService.Answer a = MapService.lookup(map, view, bad);
            assertEquals(400, a.status(), bad);
            assertTrue(a.body().contains("malformed user id"), a.body());
        }
        assertEquals(404, MapService.lookup(map, view, "18446744073709551615").status());
        assertEquals(200, MapService.lookup(map, view, "007").status());
        assertEquals("a/b", MapService.decode("a%2Fb"));
        assertEquals("1", MapService.decode("%31"));
        assertEquals("é", MapService.decode("%C3%A9"));
        assertEquals("%ff", MapService.decode("%ff"), "not UTF-8: left as sent, as the Rust service names it");
    }
}
