package dev.sympathy.jmh.queue;

import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhExperiment;
import dev.sympathy.jmh.runner.JmhRun;
import dev.sympathy.jmh.runner.JmhScore;
import dev.sympathy.jmh.runner.ScoreMetric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * queue ({@code experiments/queue.toml}) under JMH: {@link QueueThroughput} with its own warm-up
 * iterations; the consumer's {@code pollsMade} (ops/s) becomes {@code msgs_per_sec}. The
 * {@code element} a variant carries is the catalog's (the variant's {@code params}, else the
 * experiment's).
 *
 * <pre>{@code
 * java/jmh/run run queue --plan --quick
 * // {"kind":"plan","experiment":"queue","language":"java","variant":"p1c1",
 * //  "params":{"capacity":32768,"element":"u32","placement":"cross-core"}} ...
 * }</pre>
 */
public final class QueueExperiment implements JmhExperiment {
    @Override
    public String id() {
        return "queue";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // warmup iterations until C2's code of the loops is the one measured (QueueThroughput.warmupIterations)
        final int warmups = QueueThroughput.warmupIterations(at.iterations().warmupIterations());
        return List.of(new JmhRun(QueueThroughput.class, at.options(QueueThroughput.class).warmupIterations(warmups),
                List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED")));
    }

    @Override
    public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("capacity", c.number("capacity"));
        params.put("element", at.variantParam(c.variant(), "element"));
        params.put("placement", c.param("placement"));
        return Optional.of(new JmhScore(params,
                List.of(ScoreMetric.secondary("msgs_per_sec", "pollsMade", "ops/s", x -> x))));
    }
}
