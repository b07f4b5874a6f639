package dev.sympathy.jmh.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** The end-of-iteration tally that atomic-increment checks its counter against. */
class TalliesTest {
    @Test
    void shouldGiveTheSumToTheLastReporterOnly() {
        final Tallies tallies = new Tallies();
        assertEquals(-1, tallies.report(0, 5, 3));
        assertEquals(-1, tallies.report(1, 7, 3));
        assertEquals(5 + 7 + 11, tallies.report(2, 11, 3));
        assertEquals(Map.of(0, 5L, 1, 7L, 2, 11L), tallies.byThread());

        tallies.reset();
        assertEquals(Map.of(), tallies.byThread());
        assertEquals(-1, tallies.report(0, 1, 2));
        assertEquals(3, tallies.report(1, 2, 2));
    }

    @Test
    void shouldSumTheHandoffsOfEveryThread() {
        final Tallies tallies = new Tallies();
        assertEquals(-1, tallies.report(0, 5, 2, 2));
        assertEquals(5 + 7, tallies.report(1, 7, 3, 2));
        assertEquals(5, tallies.handoffs());
        tallies.reset();
        assertEquals(0, tallies.handoffs());
    }

    @Test
    void shouldCountAHandoffWhenAnotherThreadIncrementedInBetween() {
        final AtomicIncrement.Increments mine = new AtomicIncrement.Increments();
        mine.saw(0);
        mine.saw(1);
        mine.saw(5); // values 2..4 went to another thread
        mine.saw(6);
        assertEquals(1, mine.handoffs);
        assertEquals(7, mine.expected);
        assertEquals(true, AtomicIncrement.countsHandoffs("cas-val", 2));
        assertEquals(false, AtomicIncrement.countsHandoffs("cas-val", 1));
        assertEquals(false, AtomicIncrement.countsHandoffs("lock-add", 2));
    }

    /**
     * Thread 0 adds its tally, then thread 1 reports completely, then thread 0 counts itself:
     * thread 0 is the last reporter and must see both tallies. (The first version handed the
     * last thread the value of its own add, which missed thread 1's tally here: in JMH runs the
     * counter then looked about twice the sum.)
     */
    @Test
    void shouldGiveTheLastReporterATallyAddedAfterItsOwn() {
        final Tallies[] tallies = new Tallies[1];
        final long[] threadOne = new long[1];
        tallies[0] = new Tallies(thread -> {
            if (thread == 0) {
                final Thread other = new Thread(() -> threadOne[0] = tallies[0].report(1, 7, 2));
                other.start();
                try {
                    other.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        });
        final long threadZero = tallies[0].report(0, 5, 2);
        assertEquals(-1, threadOne[0], "thread 1 counted itself first: not the last reporter");
        assertEquals(5 + 7, threadZero, "the last reporter sees both tallies");
    }

    /** Two threads reporting together, round after round: exactly one gets the whole sum. */
    @Test
    void shouldGiveExactlyOneThreadTheSumWhenThreadsReportTogether() throws Exception {
        final int rounds = 2_000;
        final Tallies tallies = new Tallies();
        final long[][] seen = new long[2][rounds];
        final CyclicBarrier start = new CyclicBarrier(2, tallies::reset);
        final Thread[] threads = new Thread[2];
        final Throwable[] failure = new Throwable[1];
        for (int t = 0; t < 2; t++) {
            final int thread = t;
            threads[t] = new Thread(() -> {
                try {
                    for (int round = 0; round < rounds; round++) {
                        start.await();
                        seen[thread][round] = tallies.report(thread, made(thread, round), 2);
                    }
                } catch (Exception e) {
                    failure[0] = e;
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(null, failure[0]);
        for (int round = 0; round < rounds; round++) {
            final long a = seen[0][round];
            final long b = seen[1][round];
            assertEquals(1, (a >= 0 ? 1 : 0) + (b >= 0 ? 1 : 0), "round " + round + ": one last reporter");
            assertEquals(made(0, round) + made(1, round), Math.max(a, b), "round " + round);
        }
    }

    private static long made(int thread, int round) {
        return thread == 0 ? round + 1 : 1_000_000L + round;
    }
}
