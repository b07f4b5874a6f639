package dev.sympathy.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.runner.Converter;
import dev.sympathy.jmh.runner.JmhExperiments;
import dev.sympathy.results.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JMH JSON to results-schema conversion, on a fixed JMH result file (jmh-sample.json). */
class ConverterTest {
    private static final Map<String, Object> COMMON = Map.of("preset", "quick");
    private static final Catalog CATALOG = Catalog.fromProperty();

    /** The converter of a quick run of the experiments found, with the repository's catalog. */
    private static Converter converter() {
        return new Converter(JmhExperiments.found(), CATALOG, Preset.QUICK, COMMON);
    }

    private static String sample() throws IOException {
        try (InputStream in = ConverterTest.class.getResourceAsStream("/jmh-sample.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<Map<String, Object>> convert(List<String> extras) throws IOException {
        return converter().convert(sample(), extras);
    }

    private static Map<String, Object> find(List<Map<String, Object>> records, String variant, String metric) {
        return records.stream()
                .filter(r -> r.get("variant").equals(variant) && r.get("metric").equals(metric))
                .findFirst().orElseThrow(() -> new AssertionError("no " + variant + "/" + metric + " in " + records));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stats(Map<String, Object> record) {
        return (Map<String, Object>) record.get("stats");
    }

    @Test
    void shouldTurnThroughputIntoNanosecondsPerOpWithEveryForkIterationAsARun() throws IOException {
        final Map<String, Object> r = find(convert(List.of()), "lock-xadd", "ns_per_op");
        assertEquals("atomic-increment", r.get("experiment"));
        assertEquals("java", r.get("language"));
        assertEquals(Map.of("threads", 2, "preset", "quick"), r.get("params"));
        // 1/0.1, 1/0.125, 1/0.08, 1/0.1 = 10, 8, 12.5, 10: median 10
        assertEquals(10.0, (double) r.get("value"), 1e-9);
        assertEquals(4, stats(r).get("runs"));
        assertEquals(8.0, (double) stats(r).get("min"), 1e-9);
        assertEquals(12.5, (double) stats(r).get("max"), 1e-9);
        assertEquals("ok", r.get("check"));
        assertEquals("ns", r.get("unit"));
    }

    @Test
    void shouldDividePingPongRunsByTwoHopsPerIteration() throws IOException {
        final List<Map<String, Object>> records = convert(List.of());
        final Map<String, Object> hop = find(records, "store-release", "ns_per_hop");
        assertEquals(65.0, (double) hop.get("value"), 1e-9); // 130000 ns / 2000 hops
        assertEquals(64.0, (double) stats(hop).get("min"), 1e-9);
        assertEquals(70.0, (double) stats(hop).get("max"), 1e-9);
        assertEquals(1000L, ((Map<?, ?>) hop.get("params")).get("iterations"));
        final Map<String, Object> rate = find(records, "store-release", "hops_per_sec");
        assertEquals(1e9 / 65.0, (double) rate.get("value"), 1e-3);
        assertEquals(1e9 / 70.0, (double) stats(rate).get("min"), 1e-3);
    }

    @Test
    void shouldDivideAWalkByItsElements() throws IOException {
        final Map<String, Object> r = find(convert(List.of()), "random-heap", "ns_per_op");
        assertEquals(10.0, (double) r.get("value"), 1e-9); // 2^31 B / 8 = 2^28 elements
        final Map<?, ?> params = (Map<?, ?>) r.get("params");
        assertEquals(2147483648L, params.get("size_bytes"));
        assertEquals("off-heap", params.get("memory"));
        assertEquals(false, params.get("huge_pages"));
    }

    @Test
    void shouldReportTheConsumersPollsAsMessagesPerSecond() throws IOException {
        final Map<String, Object> r = find(convert(List.of()), "p1c1", "msgs_per_sec");
        assertEquals("queue", r.get("experiment"));
        assertEquals(1.1e8, (double) r.get("value"), 1e-3);
        assertEquals(2, stats(r).get("runs"));
        assertEquals(Map.of("capacity", 32768L, "element", "u32", "placement", "cross-core", "preset", "quick"),
                r.get("params"));
    }

    @Test
    void shouldFoldExtrasIntoOneRecordPerMetric() throws IOException {
        final List<String> extras = List.of(
                "{\"experiment\":\"struct-table\",\"variant\":\"boxed\",\"params\":{\"records\":1000},"
                        + "\"metric\":\"init_ms\",\"unit\":\"ms\",\"value\":3.0,\"check\":\"ok\"}",
                "{\"experiment\":\"struct-table\",\"variant\":\"boxed\",\"params\":{\"records\":1000},"
                        + "\"metric\":\"init_ms\",\"unit\":\"ms\",\"value\":1.0,\"check\":\"ok\"}",
                "{\"experiment\":\"struct-table\",\"variant\":\"boxed\",\"params\":{\"records\":1000},"
                        + "\"metric\":\"bytes_per_record\",\"unit\":\"bytes\",\"value\":60.0,\"check\":\"n/a\"}");
        final List<Map<String, Object>> records = convert(extras);
        final Map<String, Object> init = find(records, "boxed", "init_ms");
        assertEquals(2.0, (double) init.get("value"), 1e-9);
        assertEquals(2, stats(init).get("runs"));
        // two measured runs: the first and every run in the order recorded
        assertEquals(3.0, (double) stats(init).get("first"), 1e-9);
        assertEquals(List.of(3.0, 1.0), stats(init).get("samples"));
        final Map<String, Object> bytes = find(records, "boxed", "bytes_per_record");
        assertEquals("n/a", bytes.get("check"));
        // one run: neither
        assertFalse(stats(bytes).containsKey("first"), "first of a single run: " + bytes);
        assertFalse(stats(bytes).containsKey("samples"), "samples of a single run: " + bytes);
    }

    @Test
    void shouldTurnADispatchInvocationIntoOpsPerSecond() throws IOException {
        final Map<String, Object> r = find(convert(List.of()), "mega", "ops_per_sec");
        assertEquals("dispatch", r.get("experiment"));
        assertEquals("ops/s", r.get("unit"));
        assertEquals(Map.of("implementations", 4, "iterations", 1000L, "preset", "quick"), r.get("params"));
        // 1000 calls in 2000, 4000, 1000 ns: 5e8, 2.5e8, 1e9 calls/s
        assertEquals(5e8, (double) r.get("value"), 1e-3);
        assertEquals(3, stats(r).get("runs"));
        assertEquals(2.5e8, (double) stats(r).get("min"), 1e-3);
        assertEquals(1e9, (double) stats(r).get("max"), 1e-3);
        // rawData [[2000, 4000], [1000]]: the first fork's iterations, then the second's
        assertEquals(5e8, (double) stats(r).get("first"), 1e-3);
        assertSamples(List.of(5e8, 2.5e8, 1e9), stats(r), 1e-3);
    }

    @Test
    void shouldCarryTheJitsCompileTimeOfEachMeasuredIteration() {
        final String jmh = "[{\"benchmark\":\"dev.sympathy.jmh.pingpong.PingPong.run\",\"mode\":\"ss\","
                + "\"threads\":1,\"forks\":1,\"params\":{\"iterations\":\"1000\",\"variant\":\"xadd\"},"
                + "\"primaryMetric\":{\"score\":136000.0,\"scoreUnit\":\"ns/op\","
                + "\"rawData\":[[150000.0,128000.0,130000.0]]},\"secondaryMetrics\":{"
                + "\"compiler.time.profiled\":{\"score\":7.0,\"scoreUnit\":\"ms\",\"rawData\":[[20.0,1.0,0.0]]},"
                + "\"compiler.time.total\":{\"score\":300.0,\"scoreUnit\":\"ms\",\"rawData\":[[300.0,301.0,301.0]]}}}]";
        final List<Map<String, Object>> records = converter().convert(jmh, List.of());
        for (String metric : List.of("ns_per_hop", "hops_per_sec")) {
            assertEquals(List.of(20.0, 1.0, 0.0), stats(find(records, "xadd", metric)).get("jit_ms"), metric);
        }
        // without the profiler, no jit_ms
        final String bare = jmh.substring(0, jmh.indexOf("\"compiler.time.profiled")) + "}}]";
        assertEquals(null, stats(find(converter().convert(bare, List.of()), "xadd", "ns_per_hop")).get("jit_ms"));
    }

    @Test
    void shouldWriteTheFirstMeasuredIterationAndEverySampleNormalised() {
        // three measured shots of 1000 round trips (2000 hops), the first still warming up
        final String jmh = "[{\"benchmark\":\"dev.sympathy.jmh.pingpong.PingPong.run\",\"mode\":\"ss\","
                + "\"threads\":1,\"forks\":1,\"params\":{\"iterations\":\"1000\",\"variant\":\"xadd\"},"
                + "\"primaryMetric\":{\"score\":136000.0,\"scoreUnit\":\"ns/op\","
                + "\"rawData\":[[150000.0,128000.0,130000.0]]},\"secondaryMetrics\":{}}]";
        final List<Map<String, Object>> records = converter().convert(jmh, List.of());
        final Map<String, Object> hop = find(records, "xadd", "ns_per_hop");
        assertEquals(3, stats(hop).get("runs"));
        assertEquals(75.0, (double) stats(hop).get("first"), 1e-9); // 150000 ns / 2000 hops
        assertSamples(List.of(75.0, 64.0, 65.0), stats(hop), 1e-9);
        assertEquals(65.0, (double) stats(hop).get("median"), 1e-9);
        assertEquals(65.0, (double) hop.get("value"), 1e-9);
        assertEquals(64.0, (double) stats(hop).get("min"), 1e-9);
        assertEquals(75.0, (double) stats(hop).get("max"), 1e-9);
        // the rate is the same runs, each turned into hops per second
        final Map<String, Object> rate = find(records, "xadd", "hops_per_sec");
        assertEquals(1e9 / 75.0, (double) stats(rate).get("first"), 1e-3);
        assertSamples(List.of(1e9 / 75.0, 1e9 / 64.0, 1e9 / 65.0), stats(rate), 1e-3);
        assertEquals(1e9 / 65.0, (double) rate.get("value"), 1e-3);
    }

    @Test
    void shouldWriteTheFirstOfASingleMeasuredIteration() throws IOException {
        // memory-walk's rawData is [[2684354560]]: one run, still a measured iteration
        final Map<String, Object> r = find(convert(List.of()), "random-heap", "ns_per_op");
        assertEquals(10.0, (double) stats(r).get("first"), 1e-9);
        assertSamples(List.of(10.0), stats(r), 1e-9);
    }

    private static void assertSamples(List<Double> expected, Map<String, Object> stats, double delta) {
        final List<?> samples = (List<?>) stats.get("samples");
        assertEquals(expected.size(), samples.size(), "samples " + samples);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), (double) (Double) samples.get(i), delta, "sample " + i + " of " + samples);
        }
    }

    @Test
    void shouldReportNoSingleShotScoreWhoseMetricsAreExtras() throws IOException {
        final List<Map<String, Object>> records = convert(List.of());
        for (Map<String, Object> r : records) {
            assertEquals(false, r.get("experiment").equals("serialization") || r.get("experiment").equals("back-pressure")
                    || r.get("variant").equals("step-down"), "unexpected record " + r);
        }
        assertEquals(1, records.stream().filter(r -> r.get("experiment").equals("dispatch")).count());
    }

    @Test
    void shouldFoldTheNewExperimentsExtrasWithTheSpecsNames() throws IOException {
        final List<String> extras = List.of(
                "{\"experiment\":\"serialization\",\"variant\":\"ffm\",\"params\":{\"count\":1000},"
                        + "\"metric\":\"write_ns\",\"unit\":\"ns\",\"value\":21.0,\"check\":\"ok\"}",
                "{\"experiment\":\"serialization\",\"variant\":\"ffm\",\"params\":{\"count\":1000},"
                        + "\"metric\":\"write_ns\",\"unit\":\"ns\",\"value\":19.0,\"check\":\"ok\"}",
                "{\"experiment\":\"dispatch\",\"variant\":\"step-down\",\"params\":{\"implementations\":2,"
                        + "\"phase\":2,\"iterations\":1000},\"metric\":\"ops_per_sec\",\"unit\":\"ops/s\","
                        + "\"value\":3.0E9,\"check\":\"ok\"}",
                "{\"experiment\":\"back-pressure\",\"variant\":\"bounded\",\"params\":{\"load\":\"1.5\","
                        + "\"arrival_per_sec\":150000,\"service_ns\":10000,\"workers\":1,\"queue_len\":100,"
                        + "\"count\":2000},\"metric\":\"rejected\",\"unit\":\"requests\",\"value\":650.0,"
                        + "\"check\":\"ok\"}");
        final List<Map<String, Object>> records = convert(extras);
        final Map<String, Object> write = find(records, "ffm", "write_ns");
        assertEquals("serialization", write.get("experiment"));
        assertEquals(20.0, (double) write.get("value"), 1e-9);
        assertEquals(21.0, (double) stats(write).get("first"), 1e-9);
        assertEquals(Map.of("count", 1000L, "preset", "quick"), write.get("params"));
        final Map<String, Object> phase = find(records, "step-down", "ops_per_sec");
        assertEquals(Map.of("implementations", 2L, "phase", 2L, "iterations", 1000L, "preset", "quick"), phase.get("params"));
        final Map<String, Object> rejected = find(records, "bounded", "rejected");
        assertEquals("back-pressure", rejected.get("experiment"));
        assertEquals("1.5", ((Map<?, ?>) rejected.get("params")).get("load"));
        assertEquals(100L, ((Map<?, ?>) rejected.get("params")).get("queue_len"));
        assertEquals("requests", rejected.get("unit"));
        assertFalse(stats(rejected).containsKey("first"), "first of a single run: " + rejected);
    }

    @Test
    void shouldWriteRecordsWhoseFieldsFollowTheSchemaOrder() throws IOException {
        final String line = Json.write(find(convert(List.of()), "lock-xadd", "ns_per_op"));
        assertEquals("{\"kind\":\"result\",\"experiment\":\"atomic-increment\",\"language\":\"java\","
                + "\"variant\":\"lock-xadd\",\"params\":{\"threads\":2,\"preset\":\"quick\"},\"metric\":\"ns_per_op\","
                + "\"value\":10.0,\"unit\":\"ns\",\"stats\":{\"runs\":4,\"median\":10.0,\"first\":10.0,\"min\":8.0,"
                + "\"max\":12.5,\"samples\":[10.0,8.0,12.5,10.0]},\"check\":\"ok\",\"parity\":{\"pinned\":false}}", line);
    }

    @Test
    void shouldRejectAScoreInAnUnexpectedUnit() throws IOException {
        final String bad = sample().replace("\"ops/ns\"", "\"ops/us\"");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> converter().convert(bad, List.of()));
        assertEquals("expected scores in ops/ns, got ops/us", e.getMessage());
    }

    @Test
    void shouldRejectMalformedJsonWithItsOffset() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> converter().convert("[{\"benchmark\": }]", List.of()));
        assertEquals("invalid JSON at offset 15: unexpected character '}'", e.getMessage());
    }
}
