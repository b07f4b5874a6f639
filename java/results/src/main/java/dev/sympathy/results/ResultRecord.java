package dev.sympathy.results;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The schema's {@code result} record (docs/results.md) of a Java run, its fields in the schema's
 * order: {@code kind, experiment, language, variant, params, metric, value, unit, stats, check},
 * with {@code value} the median of the runs.
 *
 * <pre>{@code
 * Map<String, Object> r = ResultRecord.of("ipc", "ring", Map.of("count", 10), "msgs_per_sec", "msgs/s",
 *         Stats.of(2.0e6), "ok");
 * Json.write(r);
 * // {"kind":"result","experiment":"ipc","language":"java","variant":"ring","params":{"count":10},
 * //  "metric":"msgs_per_sec","value":2000000.0,"unit":"msgs/s",
 * //  "stats":{"runs":1,"median":2000000.0,"min":2000000.0,"max":2000000.0},"check":"ok"}
 * }</pre>
 */
public final class ResultRecord {
    private ResultRecord() {
    }

    /**
     * One result record (a mutable map, key order kept); {@code check} is {@code "ok"} when the
     * run's output was verified, {@code "n/a"} when there was nothing to verify.
     */
    public static Map<String, Object> of(String experiment, String variant, Map<String, Object> params,
            String metric, String unit, Stats stats, String check) {
        final Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("kind", "result");
        rec.put("experiment", experiment);
        rec.put("language", "java");
        rec.put("variant", variant);
        rec.put("params", params);
        rec.put("metric", metric);
        rec.put("value", stats.median());
        rec.put("unit", unit);
        rec.put("stats", stats.toJson());
        rec.put("check", check);
        return rec;
    }
}
