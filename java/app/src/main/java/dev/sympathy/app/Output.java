package dev.sympathy.app;

import dev.sympathy.results.EnvRecord;
import dev.sympathy.results.Json;
import dev.sympathy.results.ResultRecord;
import dev.sympathy.results.Stats;
import java.io.PrintStream;
import java.util.Map;

/**
 * Where results go: seed-style human lines on stdout, or with {@code --json} the results schema
 * (docs/results.md) on stdout, an {@code env} line first, and the human lines on stderr.
 */
final class Output {
    /** The env record's {@code tool}. */
    static final String TOOL = "sympathy-sidecar 0.1.0";

    private final boolean json;
    private final PrintStream human;

    Output(boolean json) {
        this.json = json;
        this.human = json ? System.err : System.out;
        if (json) {
            System.out.println(Json.write(EnvRecord.collect(TOOL)));
        }
    }

    /** A seed-style progress or summary line. */
    void line(String text) {
        human.println(text);
        human.flush();
    }

    /** One {@code result} record (JSON mode) and its summary line. */
    void result(String experiment, String variant, Map<String, Object> params, String metric, String unit, Stats stats) {
        result(experiment, variant, params, metric, unit, stats, "ok");
    }

    /** As {@link #result(String, String, Map, String, String, Stats)} with the record's {@code check} ({@code n/a} for a size). */
    void result(String experiment, String variant, Map<String, Object> params, String metric, String unit, Stats stats,
            String check) {
        // the parity fact `pinned`: these runs pin every measured thread (a failed pin fails the run)
        // and say so in their `pinning` param
        result(experiment, variant, params, metric, unit, stats, check,
                Map.of("pinned", "pinned".equals(params.get("pinning"))));
    }

    /** As {@link #result(String, String, Map, String, String, Stats, String)} with the record's parity facts. */
    void result(String experiment, String variant, Map<String, Object> params, String metric, String unit, Stats stats,
            String check, Map<String, Object> parity) {
        if (json) {
            final Map<String, Object> record = ResultRecord.of(experiment, variant, params, metric, unit, stats, check);
            record.put("parity", parity);
            System.out.println(Json.write(record));
            System.out.flush();
        }
        line(String.format("%-28s %-14s %s %s (%s .. %s, %d runs)", variant, metric, human(stats.median()), unit,
                human(stats.min()), human(stats.max()), stats.runs()));
    }

    static String human(double v) {
        if (v >= 1e9) {
            return String.format("%.2fG", v / 1e9);
        } else if (v >= 1e6) {
            return String.format("%.2fM", v / 1e6);
        } else if (v >= 1e4) {
            return String.format("%.1fk", v / 1e3);
        }
        return String.format("%.1f", v);
    }
}
