package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parity facts the forks write land in the results they describe, and only there. */
class FactsTest {
    private static Map<String, Object> record(String variant) {
        final Map<String, Object> r = new HashMap<>();
        r.put("experiment", "queue");
        r.put("variant", variant);
        return r;
    }

    @Test
    void shouldGiveEveryResultTheRunsPinningAndEachVariantItsOwnFacts() {
        final Facts facts = Facts.of(List.of(
                "{\"fact\":\"pinned\",\"value\":true}",
                "{\"fact\":\"pinned\",\"value\":true}",
                "{\"experiment\":\"queue\",\"variant\":\"ring\",\"params\":{},\"metric\":\"m\",\"unit\":\"u\",\"value\":1,\"check\":\"ok\"}",
                "{\"fact\":\"batch\",\"value\":256,\"experiment\":\"queue\",\"variant\":\"ring\"}",
                "{\"fact\":\"batch\",\"value\":1,\"experiment\":\"queue\",\"variant\":\"p1c1\"}"));
        final Map<String, Object> ring = record("ring");
        final Map<String, Object> p1c1 = record("p1c1");
        facts.attach(ring);
        facts.attach(p1c1);
        assertEquals(Map.of("pinned", true, "batch", 256L), ring.get("parity"));
        assertEquals(Map.of("pinned", true, "batch", 1L), p1c1.get("parity"));
    }

    @Test
    void shouldSayUnpinnedWhenAnyPinWasNotMadeOrNoneWasAskedFor() {
        final Map<String, Object> r = record("ring");
        Facts.of(List.of("{\"fact\":\"pinned\",\"value\":true}", "{\"fact\":\"pinned\",\"value\":false}")).attach(r);
        assertEquals(false, ((Map<?, ?>) r.get("parity")).get("pinned"));
        Facts.of(List.of()).attach(r);
        assertEquals(false, ((Map<?, ?>) r.get("parity")).get("pinned"));
    }
}
