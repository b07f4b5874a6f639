package dev.sympathy.jmh.backpressure;

import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhExperiment;
import dev.sympathy.jmh.runner.JmhRun;
import dev.sympathy.jmh.runner.JmhScore;
import dev.sympathy.jmh.support.Pinning;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * back-pressure ({@code experiments/back-pressure.toml}) under JMH: {@link BackPressure}, its
 * latency bound enforced from {@code --quick} on. Single-shot: every metric (latencies,
 * {@code rejected}, {@code completed}) is an extra.
 *
 * <pre>{@code
 * java/jmh/run run back-pressure --plan --smoke
 * // {"kind":"plan","experiment":"back-pressure","language":"java","variant":"unbounded",
 * //  "params":{"load":"0.5","arrival_per_sec":50000,"service_ns":10000,"workers":1,"count":...}} ...
 * }</pre>
 */
public final class BackPressureExperiment implements JmhExperiment {
    @Override
    public String id() {
        return "back-pressure";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // smoke checks the plumbing: the accounting checked but not the latency bound (a
        // loaded CI machine's preemptions would fail it: the latencies say "check":"n/a");
        // the bound is enforced from --quick on.
        final boolean smoke = at.preset() == Preset.SMOKE;
        // Eight warmup runs (a few seconds): until C2 has compiled the generator's and the
        // worker's loops, its compiler threads take turns with the two pinned spinning
        // threads on the two cores, 4 ms at a time, and the bounded queue misses its bound.
        // One measured run at quick, as Rust's back-pressure makes one there: a compare
        // round gives both languages the same samples (the rounds repeat it).
        final int measured = at.preset() == Preset.QUICK ? 1 : at.iterations().measurementIterations();
        return List.of(new JmhRun(BackPressure.class, at.options(BackPressure.class)
                .warmupIterations(smoke ? 0 : 8)
                .measurementIterations(measured)
                .param("enforceBound", Boolean.toString(!smoke)), List.of()));
    }

    @Override
    public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        return Optional.empty(); // single-shot runs whose metrics are all extras
    }

    @Override
    public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        final String load = c.param("load");
        return List.of(BackPressure.resultParams(load, BackPressure.config(c.variant(), load, c.number("serviceNs"),
                c.number("maxLatencyNs"), (int) c.number("count"), Pinning.processCores())));
    }
}
