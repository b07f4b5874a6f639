package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sympathy.results.ResultRecord;
import dev.sympathy.results.Stats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The human line of a result (without {@code --json}). */
class HumanLineTest {
    private static Map<String, Object> params() {
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("threads", 2);
        params.put("preset", "quick");
        return params;
    }

    @Test
    void shouldShowTheFirstMeasuredRunBesideTheSpread() {
        final Map<String, Object> rec = ResultRecord.of("atomic-increment", "lock-xadd", params(), "ns_per_op", "ns",
                Stats.inOrder(List.of(12.0, 9.1, 9.3)), "ok");
        assertEquals("atomic-increment lock-xadd threads=2 preset=quick: ns_per_op 9.300 ns (9.100 .. 12.000, 3 runs,"
                + " first 12.000) ok", Main.human(rec));
    }

    @Test
    void shouldLeaveTheFirstOutWhereTheRecordHasNone() {
        final Map<String, Object> rec = ResultRecord.of("atomic-increment", "lock-xadd", params(), "ns_per_op", "ns",
                Stats.of(9.1, 9.3), "ok");
        assertEquals("atomic-increment lock-xadd threads=2 preset=quick: ns_per_op 9.200 ns (9.100 .. 9.300, 2 runs) ok",
                Main.human(rec));
    }
}
