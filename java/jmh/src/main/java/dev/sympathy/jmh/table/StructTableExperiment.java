package dev.sympathy.jmh.table;

import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhExperiment;
import dev.sympathy.jmh.runner.JmhRun;
import dev.sympathy.jmh.runner.JmhScore;
import dev.sympathy.jmh.runner.ScoreMetric;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * struct-table ({@code experiments/struct-table.toml}) under JMH: {@link StructTable} in forks
 * whose heap holds the boxed table, with its own warm-up shots; one run (ms) becomes
 * {@code total_ms}, and the extras ({@code init_ms}, {@code query_ms}, {@code bytes_per_record},
 * {@code gc_pause_ms}) share its params.
 *
 * <pre>{@code
 * java/jmh/run run struct-table --plan --quick
 * // {"kind":"plan","experiment":"struct-table","language":"java","variant":"boxed","params":{"records":1000000}} ...
 * }</pre>
 */
public final class StructTableExperiment implements JmhExperiment {
    @Override
    public String id() {
        return "struct-table";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // boxed needs ~60 bytes per record on the heap (object + reference); the rest is the
        // collector's room: 50M records get ~8 GiB
        final long heapMib = at.max("records") * 160 / (1 << 20) + 256;
        // warm-up shots until C2 has compiled the build and the query whole (StructTable.warmupShots)
        final int warmups = StructTable.warmupShots(at.iterations().warmupIterations());
        return List.of(new JmhRun(StructTable.class, at.options(StructTable.class).warmupIterations(warmups),
                List.of("-Xmx" + heapMib + "m", JmhRun.UNSAFE_ALLOW)));
    }

    @Override
    public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        return Optional.of(new JmhScore(StructTable.resultParams((int) c.number("records")),
                List.of(ScoreMetric.primary("total_ms", "ms/op", x -> x))));
    }

    @Override
    public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        return List.of(StructTable.resultParams((int) c.number("records")));
    }
}
