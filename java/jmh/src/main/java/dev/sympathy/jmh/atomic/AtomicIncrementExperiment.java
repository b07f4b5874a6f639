package dev.sympathy.jmh.atomic;

import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhExperiment;
import dev.sympathy.jmh.runner.JmhRun;
import dev.sympathy.jmh.runner.JmhScore;
import dev.sympathy.jmh.runner.ScoreMetric;
import dev.sympathy.jmh.support.Pinning;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * atomic-increment ({@code experiments/atomic-increment.toml}) under JMH: {@link AtomicIncrement}
 * once per catalog thread count that the usable cores hold; JMH's throughput (ops/ns, all
 * threads) becomes {@code ns_per_op = 1 / score}; the extras are each thread's
 * {@code thread_share} and, where the kernel sees the counter, {@code ops_per_handoff}.
 *
 * <pre>{@code
 * java/jmh/run run atomic-increment --plan --quick
 * // {"kind":"plan","experiment":"atomic-increment","language":"java","variant":"cas-bool","params":{"threads":1}} ...
 * }</pre>
 */
public final class AtomicIncrementExperiment implements JmhExperiment {
    @Override
    public String id() {
        return "atomic-increment";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // JMH's thread count is no @Param: one run per catalog value, each thread on a core of its
        // own, so (as Rust's run) counts above the usable cores are left out
        final List<JmhRun> runs = new ArrayList<>();
        for (Object value : at.values("threads")) {
            final int threads = Math.toIntExact((Long) value);
            if (threads <= Pinning.processCores()) {
                runs.add(new JmhRun(AtomicIncrement.class, at.options(AtomicIncrement.class).threads(threads), List.of()));
            }
        }
        return runs;
    }

    @Override
    public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("threads", c.threads());
        return Optional.of(new JmhScore(params, List.of(ScoreMetric.primary("ns_per_op", "ops/ns", x -> 1.0 / x))));
    }

    @Override
    public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        final List<Map<String, Object>> params = new ArrayList<>();
        for (int thread = 0; thread < c.threads(); thread++) {
            params.add(AtomicIncrement.shareParams(c.threads(), thread));
        }
        if (AtomicIncrement.countsHandoffs(c.variant(), c.threads())) {
            params.add(AtomicIncrement.handoffParams(c.threads()));
        }
        return params;
    }
}
