package dev.sympathy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Median and spread as the Rust side's {@code Stats::from_samples}, and nearest-rank quantiles. */
class StatsTest {
    @Test
    void shouldTakeTheMiddleSampleOfAnOddCount() {
        assertEquals(new Stats(3, 2.0, 1.0, 3.0), Stats.of(List.of(3.0, 1.0, 2.0)));
    }

    @Test
    void shouldAverageTheTwoMiddleSamplesOfAnEvenCount() {
        assertEquals(new Stats(4, 2.5, 1.0, 10.0), Stats.of(3.0, 1.0, 2.0, 10.0));
    }

    @Test
    void shouldNotReorderTheCallersSamples() {
        final double[] samples = {3.0, 1.0, 2.0};
        Stats.of(samples);
        assertEquals(3.0, samples[0]);
    }

    @Test
    void shouldRejectNoSampleOrANaN() {
        assertThrows(IllegalArgumentException.class, () -> Stats.of(List.of()));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Stats.of(1.0, Double.NaN));
        assertEquals("stats need at least one sample and no NaN, got [1.0, NaN]", e.getMessage());
    }

    @Test
    void shouldWriteTheSchemasStatsObjectInOrder() {
        final Map<String, Object> json = Stats.of(3.0, 1.0, 2.0).toJson();
        assertEquals("{\"runs\":3,\"median\":2.0,\"min\":1.0,\"max\":3.0}", Json.write(json));
    }

    @Test
    void shouldKeepTheRunsInOrderAndWriteTheFirstBesideTheMedian() {
        final Stats s = Stats.inOrder(List.of(12.0, 9.0, 10.0));
        assertEquals(Stats.of(12.0, 9.0, 10.0).median(), s.median());
        assertEquals(12.0, s.first().orElseThrow());
        assertEquals(List.of(12.0, 9.0, 10.0), s.samples());
        assertEquals("{\"runs\":3,\"median\":10.0,\"first\":12.0,\"min\":9.0,\"max\":12.0,"
                + "\"samples\":[12.0,9.0,10.0]}", Json.write(s.toJson()));
    }

    @Test
    void shouldWriteNoFirstNorSamplesWhereTheRunsWereNotKept() {
        final Stats s = Stats.of(3.0, 1.0, 2.0);
        assertTrue(s.first().isEmpty());
        assertEquals(List.of("runs", "median", "min", "max"), List.copyOf(s.toJson().keySet()));
    }

    @Test
    void shouldRejectSamplesThatAreNotTheRuns() {
        assertThrows(IllegalArgumentException.class, () -> new Stats(2, 1.0, 1.0, 1.0, List.of(1.0)));
        assertThrows(IllegalArgumentException.class, () -> Stats.inOrder(List.of(1.0, Double.NaN)));
    }

    @Test
    void shouldTakeQuantilesByNearestRank() {
        final long[] sorted = {10, 20, 30, 40};
        assertEquals(20, Stats.quantile(sorted, 0.5));
        assertEquals(40, Stats.quantile(sorted, 0.99));
        assertEquals(10, Stats.quantile(sorted, 0.0));
        assertEquals(40, Stats.quantile(sorted, 1.0));
        assertThrows(IllegalArgumentException.class, () -> Stats.quantile(new long[0], 0.5));
    }
}
