package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.dispatch.Dispatch;
import dev.sympathy.jmh.pingpong.PingPong;
import dev.sympathy.jmh.queue.QueueThroughput;
import dev.sympathy.jmh.serialization.Serialization;
import dev.sympathy.jmh.support.QuietJitProfiler;
import dev.sympathy.jmh.table.StructTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.profile.CompilerProfiler;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.ProfilerConfig;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * JMH's iterations at quick, as the runs of the repository's catalog get them: three measured
 * iterations a case (Rust's quick median of 3 runs), the benchmarks' own warmups kept.
 */
class IterationsTest {
    private static final Catalog CATALOG = Catalog.fromProperty();
    private static final JmhExperiments FOUND = JmhExperiments.found();

    /** Every run's options at {@code preset}, by benchmark class simple name (several runs: listed in order). */
    private static Map<String, List<Options>> options(Preset preset) {
        final Map<String, List<Options>> out = new LinkedHashMap<>();
        for (JmhExperiment experiment : FOUND.all()) {
            for (JmhRun run : experiment.runs(FOUND.at(experiment, CATALOG, preset))) {
                out.computeIfAbsent(run.benchmark().getSimpleName(), k -> new ArrayList<>()).add(run.options().build());
            }
        }
        return out;
    }

    @Test
    void shouldMeasureThreeShortIterationsAfterTwoShortWarmupsAtQuick() {
        final JmhIterations quick = JmhIterations.at(Preset.QUICK);
        assertEquals(new JmhIterations(2, 3, 1, 100, 100), quick);
        // the measured time a case takes grows by one 100 ms iteration, not by two more of 200 ms
        assertEquals(300, quick.measurementIterations() * quick.measurementMillis());
        // the warm-up keeps its 200 ms, in two iterations: JMH's stub is recompiled in the second
        assertEquals(200, quick.warmupIterations() * quick.warmupMillis());
    }

    @Test
    void shouldGiveEveryCaseAtQuickAsManyMeasuredIterationsAsRustsRuns() {
        // Rust's quick runs: 3, but back-pressure and offheap-map 1 (runs_or(1, 3, 3))
        final Map<String, Integer> exceptions = Map.of("BackPressure", 1, "OffheapMap", 1,
                // the seed's program once, never warmed: its phases' repetitions are the runs
                "DispatchStepDown", 1);
        options(Preset.QUICK).forEach((benchmark, runs) -> {
            for (Options o : runs) {
                assertEquals(exceptions.getOrDefault(benchmark, 3), o.getMeasurementIterations().get(), benchmark);
                assertEquals(TimeValue.milliseconds(100), o.getMeasurementTime().get(), benchmark);
                assertEquals(TimeValue.milliseconds(100), o.getWarmupTime().get(), benchmark);
                assertEquals(1, o.getForkCount().get(), benchmark);
            }
        });
    }

    @Test
    void shouldWaitForAQuietJitBeforeCountingCompilationInEveryRun() {
        // the wait first, then JMH's CompilerProfiler: stats.jit_ms counts from after the wait
        final List<String> expected = List.of(QuietJitProfiler.class.getName(), CompilerProfiler.class.getName());
        options(Preset.QUICK).forEach((benchmark, runs) -> {
            for (Options o : runs) {
                assertEquals(expected, o.getProfilers().stream().map(ProfilerConfig::getKlass).toList(), benchmark);
            }
        });
    }

    @Test
    void shouldKeepTheBenchmarksOwnWarmupsAtQuick() {
        final Map<String, List<Options>> quick = options(Preset.QUICK);
        final int count = Math.toIntExact(FOUND.at(FOUND.byId("serialization").orElseThrow(), CATALOG, Preset.QUICK).max("count"));
        final int presetWarmups = JmhIterations.at(Preset.QUICK).warmupIterations();
        assertEquals(PingPong.warmupShots(presetWarmups), quick.get("PingPong").get(0).getWarmupIterations().get());
        assertEquals(PingPong.MIN_WARMUP_SHOTS, quick.get("PingPong").get(0).getWarmupIterations().get());
        assertEquals(QueueThroughput.MIN_WARMUP_ITERATIONS, quick.get("QueueThroughput").get(0).getWarmupIterations().get());
        // One run per number of warm-up shots: java-serialization's own, then the other codecs'.
        final List<Options> serialization = quick.get("Serialization");
        assertEquals(2, serialization.size());
        assertEquals(Serialization.warmupShots(count, presetWarmups, "java-serialization"),
                serialization.get(0).getWarmupIterations().get());
        assertEquals(Serialization.warmupShots(count, presetWarmups), serialization.get(1).getWarmupIterations().get());
        assertEquals(8, quick.get("BackPressure").get(0).getWarmupIterations().get());
        assertEquals(0, quick.get("DispatchStepDown").get(0).getWarmupIterations().get());
        assertEquals(Dispatch.MIN_WARMUP_ITERATIONS, quick.get("Dispatch").get(0).getWarmupIterations().get());
        assertEquals(StructTable.MIN_WARMUP_SHOTS, quick.get("StructTable").get(0).getWarmupIterations().get());
    }

    @Test
    void shouldLeaveTheOtherPresetsAsTheyWere() {
        assertEquals(new JmhIterations(0, 1, 1, 100, 100), JmhIterations.at(Preset.SMOKE));
        assertEquals(new JmhIterations(2, 5, 1, 1000, 1000), JmhIterations.at(Preset.DEFAULT));
        assertEquals(new JmhIterations(3, 10, 2, 2000, 2000), JmhIterations.at(Preset.FULL));
        // back-pressure takes the preset's measured iterations but at quick
        assertEquals(5, options(Preset.DEFAULT).get("BackPressure").get(0).getMeasurementIterations().get());
    }
}
