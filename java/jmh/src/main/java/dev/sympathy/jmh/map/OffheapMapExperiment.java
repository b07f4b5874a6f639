package dev.sympathy.jmh.map;

import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.ExtrasOnlyExperiment;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhRun;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * offheap-map ({@code experiments/offheap-map.toml}) under JMH: {@link OffheapMap}, one fork per
 * variant with the heap it needs and its GC log. Single-shot: every metric is an extra. Its forks
 * keep the default G1 (no latency flags): its figures include the collector's own pauses and
 * heap, as its users run it.
 *
 * <pre>{@code
 * java/jmh/run run offheap-map --plan --quick
 * // {"kind":"plan","experiment":"offheap-map","language":"java","variant":"heap-hashmap",
 * //  "params":{"users":1000000,"gets":1000000,"latency_samples":100000,"traversals":100000}} ...
 * }</pre>
 */
public final class OffheapMapExperiment implements ExtrasOnlyExperiment {
    @Override
    public String id() {
        return "offheap-map";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // One fork per variant: each gets the -Xmx it needs (the heap map ~500 bytes a user
        // plus 1 GiB, the off-heap ones 512 MiB, as the seed ran its OffheapMap in 500 MB),
        // and its GC log (-Xlog:gc), from which the run reads its System.gc()'s pause. Every
        // invocation builds the whole map and measures it (single-shot, no JMH warm-up: the
        // build warms the put path, and each measured loop runs an untimed warm-up first).
        final long users = at.max("users");
        final int measured = at.preset() == Preset.DEFAULT || at.preset() == Preset.FULL ? 3 : 1;
        final String gcDir = System.getProperty("java.io.tmpdir") + "/sympathy-gc";
        new File(gcDir).mkdirs();
        final List<JmhRun> runs = new ArrayList<>();
        for (String variant : at.javaVariants()) {
            final String log = gcDir + "/offheap-map-" + variant + "-%p.log";
            final List<String> jvm = new ArrayList<>(List.of("-Xmx" + OffheapMap.heapMib(variant, users) + "m",
                    "-Xlog:gc:file=" + log, "-D" + OffheapMap.GC_LOG_PROPERTY + "=" + log));
            jvm.addAll(OffheapMap.jvmFlags(variant));
            runs.add(new JmhRun(OffheapMap.class, at.options(OffheapMap.class, List.of(variant))
                    .warmupIterations(0).measurementIterations(measured).forks(1), jvm));
        }
        return runs;
    }

    /** Its figures include the collector's own pauses and heap (the default G1, which its users run). */
    @Override
    public boolean takesLatencyFlags() {
        return false;
    }

    @Override
    public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        return List.of(OffheapMap.resultParams(c.number("users"), c.number("gets"), c.number("latencySamples"),
                c.number("traversals")));
    }
}
