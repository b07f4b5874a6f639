package dev.sympathy.jmh.backpressure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.IterationType;

/** The request queue's admission, the Little's-law sizing, and a run's accounting and checks. */
class BackPressureTest {
    @Test
    void boundedQueueShouldRejectWhenFullUntilAWorkerTakesARequest() {
        final RequestQueue queue = RequestQueue.bounded(4);
        for (int id = 0; id < 4; id++) {
            assertTrue(queue.offer(id), "request " + id);
        }
        assertFalse(queue.offer(4), "full: busy");
        assertEquals(0, queue.poll());
        assertTrue(queue.offer(6), "taken: one place freed, as Rust's bounded queue frees it");
        assertFalse(queue.offer(5), "full again");
        assertEquals(5, queue.inSystem(), "four waiting and one in service");
        queue.done();
        assertEquals(4, queue.inSystem());
        assertEquals(1, queue.poll());
        assertEquals(2, queue.poll());
        assertEquals(3, queue.poll());
        assertEquals(6, queue.poll());
        assertEquals(-1, queue.poll());
    }

    @Test
    void unboundedQueueShouldTakeEveryRequestOfItsRoomThenFailLoudly() {
        final RequestQueue queue = RequestQueue.unbounded(5); // room for 8
        for (int id = 0; id < 8; id++) {
            assertTrue(queue.offer(id));
        }
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> queue.offer(8));
        assertEquals("unbounded request queue is out of room (8 slots)", e.getMessage());
        assertEquals(0, queue.poll());
        assertTrue(queue.offer(8), "a taken slot is reusable even before done()");
    }

    @Test
    void shouldSizeTheBoundedQueueByLittlesLaw() {
        assertEquals(100, LoadTest.Config.of(true, 0.8, 10_000, 1, 1_000_000, 10).queueLen());
        assertEquals(300, LoadTest.Config.of(true, 0.8, 10_000, 3, 1_000_000, 10).queueLen());
        final LoadTest.Config config = LoadTest.Config.of(true, 0.95, 10_000, 1, 1_000_000, 10);
        assertEquals(95_000, config.arrivalPerSec());
        assertEquals(1_010_000, config.boundNs());
        assertEquals(1_060_500, config.checkedBoundNs());
    }

    @Test
    void shouldRejectSettingsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> LoadTest.Config.of(true, 0, 10_000, 1, 1_000_000, 10));
        assertThrows(IllegalArgumentException.class, () -> LoadTest.Config.of(true, 1, 10_000, 0, 1_000_000, 10));
        assertThrows(IllegalArgumentException.class, () -> LoadTest.Config.of(true, 1, 10_000, 1, 1_000, 10));
        assertThrows(IllegalArgumentException.class, () -> RequestQueue.bounded(0));
    }

    @Test
    void boundedRunShouldAccountForEveryRequestAndRejectUnderOverload() throws InterruptedException {
        // four times capacity, 10 places: most requests must be turned away
        final LoadTest.Config config = LoadTest.Config.of(true, 4.0, 100_000, 1, 1_000_000, 2_000);
        final LoadTest.Outcome outcome = LoadTest.run(config, false);
        assertEquals(2_000, outcome.generated());
        assertEquals(2_000, outcome.completed() + outcome.rejected());
        assertTrue(outcome.rejected() > 0, "rejected " + outcome.rejected());
        assertTrue(outcome.completed() >= 10, "completed " + outcome.completed());
        assertTrue(outcome.p50Ns() <= outcome.p99Ns() && outcome.p99Ns() <= outcome.maxNs(), outcome.toString());
        assertTrue(outcome.p50Ns() >= config.serviceNs(), "a latency includes the service time: " + outcome);
        // admission is at or after the scheduled arrival, request by request, so every percentile too
        assertTrue(outcome.inSystemP99Ns() >= config.serviceNs() && outcome.inSystemP99Ns() <= outcome.p99Ns(),
                outcome.toString());
        assertTrue(outcome.generatorLateNs() >= 0, outcome.toString());
    }

    @Test
    void unboundedRunShouldServeEveryRequest() throws InterruptedException {
        final LoadTest.Config config = LoadTest.Config.of(false, 4.0, 100_000, 1, 1_000_000, 500);
        final LoadTest.Outcome outcome = LoadTest.run(config, false).check(config);
        assertEquals(500, outcome.completed());
        assertEquals(0, outcome.rejected());
    }

    @Test
    void checkShouldFailALostRequest() {
        final LoadTest.Config config = LoadTest.Config.of(false, 1.5, 10_000, 1, 1_000_000, 100);
        final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new LoadTest.Outcome(100, 98, 1, 1, 2, 3, 2, 0).check(config));
        assertEquals("back-pressure unbounded load=1.5: completed 98 + rejected 1 != generated 100", e.getMessage());
        assertFalse(e instanceof LoadTest.BoundMissedException, "lost requests are a real failure, never retried");
    }

    @Test
    void checkShouldFailABoundedRunOverItsBoundAndPassAnUnboundedOne() {
        final LoadTest.Config bounded = LoadTest.Config.of(true, 1.5, 10_000, 1, 1_000_000, 100);
        final LoadTest.Outcome slow = new LoadTest.Outcome(100, 60, 40, 500_000, 1_500_000, 2_000_000, 1_060_501, 7_000);
        final IllegalStateException e = assertThrows(LoadTest.BoundMissedException.class, () -> slow.check(bounded));
        assertTrue(e.getMessage().startsWith("back-pressure bounded load=1.5: p99 time in the system (admission to"
                + " completion) 1060501 ns exceeds the bound 1060500 ns (max_latency 1000000 + one service time"
                + " 10000, + 5%); p99 latency from the scheduled arrival 1500000 ns, the generator up to 7000 ns late"),
                e.getMessage());
        final LoadTest.Outcome atBound = new LoadTest.Outcome(100, 60, 40, 500_000, 1_010_000, 2_000_000, 1_010_000, 0);
        assertSame(atBound, atBound.check(bounded));
        final LoadTest.Config unbounded = LoadTest.Config.of(false, 1.5, 10_000, 1, 1_000_000, 100);
        assertSame(slow, slow.check(bounded, false), "the smoke run does not enforce the bound");
        final LoadTest.Outcome late = new LoadTest.Outcome(100, 100, 0, 5, 50_000_000, 60_000_000, 50_000_000, 0);
        assertSame(late, late.check(unbounded), "unbounded has no latency bound");
    }

    @Test
    void boundShouldHoldForTheTimeInTheSystemEvenWhenTheGeneratorWasLate() {
        final LoadTest.Config config = LoadTest.Config.of(true, 1.2, 10_000, 1, 1_000_000, 10_000);
        final Random random = new Random(0x5eed_b9L);
        for (int trial = 0; trial < 50; trial++) {
            final int completed = 1_000 + random.nextInt(9_000);
            final long lateness = config.boundNs() + random.nextInt(10_000_000); // a long generator pause
            final long[] inSystem = new long[completed];
            final long[] latencies = new long[completed];
            for (int i = 0; i < completed; i++) {
                inSystem[i] = config.serviceNs() + random.nextLong(config.boundNs() - config.serviceNs() + 1);
                latencies[i] = inSystem[i] + lateness; // every request offered late
            }
            final LoadTest.Outcome outcome = LoadTest.Outcome.of(config.count(), config.count() - completed,
                    latencies, inSystem, lateness);
            assertTrue(outcome.p99Ns() > config.boundNs(), "scheduled latencies over the bound: " + outcome);
            assertSame(outcome, outcome.check(config), "trial " + trial + ": the queue kept its promise");
        }
    }

    @Test
    void boundShouldFailWhenTheTimeInTheSystemExceedsItThoughTheGeneratorWasOnTime() {
        final LoadTest.Config config = LoadTest.Config.of(true, 1.2, 10_000, 1, 1_000_000, 10_000);
        final Random random = new Random(0x5eed_baL);
        for (int trial = 0; trial < 50; trial++) {
            final int completed = 1_000 + random.nextInt(9_000);
            final long[] inSystem = new long[completed];
            for (int i = 0; i < completed; i++) {
                inSystem[i] = config.serviceNs() + random.nextLong(config.boundNs() - config.serviceNs() + 1);
            }
            // more than 1% of the requests over the bound (which ones does not matter: the
            // percentiles sort), so the nearest-rank p99 is one of them
            final int over = completed / 100 + 1 + random.nextInt(completed / 10);
            for (int k = 0; k < over; k++) {
                inSystem[k] = config.checkedBoundNs() + 1 + random.nextInt(5_000_000);
            }
            final long[] latencies = inSystem.clone(); // on time: scheduled == admitted
            final LoadTest.Outcome outcome = LoadTest.Outcome.of(config.count(), config.count() - completed,
                    latencies, inSystem, 0);
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> outcome.check(config),
                    "trial " + trial + ": " + outcome);
            assertTrue(e.getMessage().contains("the generator up to 0 ns late"), e.getMessage());
            assertSame(outcome, outcome.check(config, false), "not enforced (smoke run, warmup iteration)");
        }
    }

    @Test
    void outcomeShouldTakeItsPercentilesFromTheirOwnArrays() {
        final LoadTest.Outcome outcome = LoadTest.Outcome.of(5, 1, new long[] {40, 10, 30, 20}, new long[] {4, 1, 3, 2}, 9);
        assertEquals(new LoadTest.Outcome(5, 4, 1, 20, 40, 40, 4, 9), outcome);
        assertThrows(IllegalArgumentException.class, () -> LoadTest.Outcome.of(2, 0, new long[2], new long[1], 0));
        assertEquals(new LoadTest.Outcome(3, 0, 3, 0, 0, 0, 0, 0), LoadTest.Outcome.of(3, 3, new long[0], new long[0], 0));
    }

    @Test
    void boundShouldBeEnforcedInMeasurementIterationsOnly() {
        assertTrue(BackPressure.boundChecked(true, IterationType.MEASUREMENT));
        assertFalse(BackPressure.boundChecked(true, IterationType.WARMUP), "the JIT compiles during warmup");
        assertFalse(BackPressure.boundChecked(false, IterationType.MEASUREMENT), "the smoke run never");
        assertFalse(BackPressure.jvmHasASpareCore(2), "two cores: both taken by the generator and the worker");
        assertTrue(BackPressure.jvmHasASpareCore(3));
        assertFalse(BackPressure.boundChecked(false, IterationType.WARMUP));
    }

    @Test
    void percentilesShouldTakeTheNearestRank() {
        final long[] values = new long[100];
        for (int i = 0; i < 100; i++) {
            values[i] = i + 1;
        }
        assertEquals(50, LoadTest.percentile(values, 0.50));
        assertEquals(99, LoadTest.percentile(values, 0.99));
        assertEquals(100, LoadTest.percentile(values, 1.0));
        assertEquals(7, LoadTest.percentile(new long[] {7}, 0.99));
        assertEquals(0, LoadTest.percentile(new long[0], 0.5));
    }
}
