package dev.sympathy.jmh.dispatch;

import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhExperiment;
import dev.sympathy.jmh.runner.JmhRun;
import dev.sympathy.jmh.runner.JmhScore;
import dev.sympathy.jmh.runner.ScoreMetric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * dispatch ({@code experiments/dispatch.toml}) under JMH: {@link Dispatch} (mono, bi, mono-call,
 * bi-call, mega), whose invocation (ns) of {@code iterations} calls becomes
 * {@code ops_per_sec = iterations / time}, with the {@code implementations} its call site sees
 * from the catalog's variant; and {@link DispatchStepDown}, the seed's program once per fork,
 * whose phases are extras (its score is not reported).
 *
 * <pre>{@code
 * java/jmh/run run dispatch --plan
 * // {"kind":"plan","experiment":"dispatch","language":"java","variant":"mega","params":{"implementations":4,"iterations":50000000}}
 * // {"kind":"plan","experiment":"dispatch","language":"java","variant":"step-down","params":{"implementations":1,"phase":1,...}} ...
 * }</pre>
 */
public final class DispatchExperiment implements JmhExperiment {
    @Override
    public String id() {
        return "dispatch";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // step-down: the seed's program once per fork, never warmed (a warm call site has seen all four)
        final ChainedOptionsBuilder stepDown = at.options(DispatchStepDown.class)
                .warmupIterations(0)
                .measurementIterations(1);
        final int warmups = Dispatch.warmupIterations(at.iterations().warmupIterations());
        return List.of(new JmhRun(Dispatch.class, at.options(Dispatch.class).warmupIterations(warmups), List.of()),
                new JmhRun(DispatchStepDown.class, stepDown, List.of()));
    }

    @Override
    public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        if (c.isOf(DispatchStepDown.class)) {
            return Optional.empty(); // one single-shot run of the seed's program: its phases are extras
        }
        final long iterations = c.number("iterations");
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("implementations", at.variantParam(c.variant(), "implementations"));
        params.put("iterations", iterations);
        return Optional.of(new JmhScore(params,
                List.of(ScoreMetric.primary("ops_per_sec", "ns/op", x -> iterations * 1e9 / x))));
    }

    @Override
    public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        final List<Map<String, Object>> params = new ArrayList<>();
        if (c.isOf(DispatchStepDown.class)) {
            for (int phase = 1; phase <= DispatchStepDown.phases(); phase++) {
                params.add(DispatchStepDown.resultParams(phase, (int) c.number("iterations")));
            }
        }
        return params;
    }
}
