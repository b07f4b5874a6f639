package dev.sympathy.jmh.walk;

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
 * memory-walk ({@code experiments/memory-walk.toml}) under JMH: {@link MemoryWalk} in forks whose
 * heap holds the largest on-heap array; one walk (ns) over its elements (8 bytes each) or its
 * chase nodes (64 bytes each) becomes {@code ns_per_op}.
 *
 * <pre>{@code
 * java/jmh/run run memory-walk --plan --quick
 * // {"kind":"plan","experiment":"memory-walk","language":"java","variant":"linear",
 * //  "params":{"size_bytes":134217728,"memory":"off-heap","huge_pages":false}} ...
 * }</pre>
 */
public final class MemoryWalkExperiment implements JmhExperiment {
    @Override
    public String id() {
        return "memory-walk";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // the array lives on the heap in the on-heap runs: room for the largest, plus 1 GiB
        final long heapMib = (at.max("size_bytes") >> 20) + 1024;
        return List.of(new JmhRun(MemoryWalk.class, at.options(MemoryWalk.class), List.of("-Xmx" + heapMib + "m")));
    }

    @Override
    public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        final String variant = c.variant();
        final long sizeBytes = c.number("sizeBytes");
        final long ops = variant.startsWith("chase") ? sizeBytes / 64 : sizeBytes / 8;
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("size_bytes", sizeBytes);
        params.put("memory", MemoryWalk.memoryOf(variant));
        params.put("huge_pages", false); // advised MADV_NOHUGEPAGE; the parity fact says what backed it
        return Optional.of(new JmhScore(params, List.of(ScoreMetric.primary("ns_per_op", "ns/op", x -> x / ops))));
    }
}
