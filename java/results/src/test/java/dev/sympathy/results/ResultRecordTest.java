package dev.sympathy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The result record, byte for byte as the Rust side and the report read it. */
class ResultRecordTest {
    @Test
    void shouldWriteTheSchemasFieldsInOrderWithTheMedianAsValue() {
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("threads", 2);
        params.put("scale", "quick");
        final String line = Json.write(ResultRecord.of("atomic-increment", "lock-xadd", params, "ns_per_op", "ns",
                Stats.of(10.0, 8.0, 12.5, 10.0), "ok"));
        assertEquals("{\"kind\":\"result\",\"experiment\":\"atomic-increment\",\"language\":\"java\","
                + "\"variant\":\"lock-xadd\",\"params\":{\"threads\":2,\"scale\":\"quick\"},\"metric\":\"ns_per_op\","
                + "\"value\":10.0,\"unit\":\"ns\",\"stats\":{\"runs\":4,\"median\":10.0,\"min\":8.0,\"max\":12.5},"
                + "\"check\":\"ok\"}", line);
    }

    @Test
    void shouldCarryTheCheckItIsGiven() {
        assertEquals("n/a", ResultRecord.of("struct-table", "boxed", Map.of(), "bytes_per_record", "bytes",
                Stats.of(60.0), "n/a").get("check"));
    }
}
