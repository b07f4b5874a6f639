package dev.sympathy.jmh.pingpong;

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
 * ping-pong ({@code experiments/ping-pong.toml}) under JMH: {@link PingPong} with its own warm-up
 * shots; one shot (ns) of {@code iterations} round trips, {@code 2 x iterations} hops, becomes
 * {@code ns_per_hop} and {@code hops_per_sec}.
 *
 * <pre>{@code
 * java/jmh/run run ping-pong --plan --quick
 * // {"kind":"plan","experiment":"ping-pong","language":"java","variant":"xadd","params":{"iterations":500000}} ...
 * }</pre>
 */
public final class PingPongExperiment implements JmhExperiment {
    @Override
    public String id() {
        return "ping-pong";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // warm-up shots until the loops' C2 code is the one measured (PingPong.warmupShots)
        final int warmups = PingPong.warmupShots(at.iterations().warmupIterations());
        return List.of(new JmhRun(PingPong.class, at.options(PingPong.class).warmupIterations(warmups), List.of()));
    }

    @Override
    public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        final long iterations = c.number("iterations");
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("iterations", iterations);
        return Optional.of(new JmhScore(params, List.of(
                ScoreMetric.primary("ns_per_hop", "ns/op", x -> x / (2.0 * iterations)),
                ScoreMetric.primary("hops_per_sec", "ns/op", x -> 1e9 / (x / (2.0 * iterations))))));
    }
}
