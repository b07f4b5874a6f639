package dev.sympathy.jmh.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many warmup iterations the queue run asks JMH for. */
class WarmupIterationsTest {
    @Test
    void shouldWarmUpForTwoIterationsAtLeastAndNeverAtSmoke() {
        assertEquals(QueueThroughput.MIN_WARMUP_ITERATIONS, QueueThroughput.warmupIterations(1), "quick: one was not enough");
        assertEquals(3, QueueThroughput.warmupIterations(3), "never fewer than the preset's");
        assertEquals(0, QueueThroughput.warmupIterations(0), "smoke checks the plumbing: no warmup");
    }
}
