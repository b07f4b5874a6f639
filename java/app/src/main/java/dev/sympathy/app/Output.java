package dev.sympathy.app;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where results go: seed-style human lines on stdout, or with {@code --json} the results schema
 * (docs/results.md) on stdout, an {@code env} line first, and the human lines on stderr.
 */
final class Output {
    private final boolean json;
    private final PrintStream human;

    Output(boolean json) {
        this.json = json;
        this.human = json ? System.err : System.out;
        if (json) {
            System.out.println(Json.object(EnvRecord.collect()));
        }
    }

    /** A seed-style progress or summary line. */
    void line(String text) {
        human.println(text);
        human.flush();
    }

    /** One {@code result} record (JSON mode) and its summary line. */
    void result(String experiment, String variant, Map<String, Object> params, String metric, String unit, Stats stats) {
        if (json) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("kind", "result");
            r.put("experiment", experiment);
            r.put("language", "java");
            r.put("variant", variant);
            r.put("params", params);
            r.put("metric", metric);
            r.put("value", stats.median());
            r.put("unit", unit);
            r.put("stats", stats.toMap());
            r.put("check", "ok");
            System.out.println(Json.object(r));
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
