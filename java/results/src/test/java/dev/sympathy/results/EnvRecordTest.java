package dev.sympathy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The env record: the schema's fields in order, and the sysfs parsing behind them. */
class EnvRecordTest {
    @Test
    void shouldWriteTheSchemasFieldsInOrder() {
        final Map<String, Object> env = EnvRecord.collect("sympathy-test 0.1.0");
        assertEquals(List.of("kind", "language", "cpu_model", "cores", "caches", "thp", "kernel", "virtualized",
                "java", "vector_isa", "tool", "timestamp"), List.copyOf(env.keySet()));
        assertTrue(List.of("sse2", "avx", "avx2", "avx512", "unknown").contains(env.get("vector_isa")), env.toString());
        assertEquals("env", env.get("kind"));
        assertEquals("java", env.get("language"));
        assertEquals("sympathy-test 0.1.0", env.get("tool"));
        assertTrue((int) env.get("cores") >= 1, env.toString());
        assertTrue(((String) env.get("timestamp")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), env.toString());
        assertTrue(((String) env.get("java")).contains(Runtime.version().toString()), env.toString());
    }

    @Test
    void shouldParseSysfsCacheSizes() {
        assertEquals(49152L, EnvRecord.parseSize("48K"));
        assertEquals(105L << 20, EnvRecord.parseSize("105M"));
        assertEquals(1L << 30, EnvRecord.parseSize("1G"));
        assertEquals(512L, EnvRecord.parseSize("512"));
        assertNull(EnvRecord.parseSize(""));
        assertNull(EnvRecord.parseSize("xK"));
    }

    @Test
    void shouldTakeTheBracketedTransparentHugePageMode() {
        assertEquals("madvise", EnvRecord.thpMode("always [madvise] never"));
        assertEquals("never", EnvRecord.thpMode("always madvise [never]"));
        assertEquals("unknown", EnvRecord.thpMode("unknown"));
    }
}
