package dev.sympathy.jmh.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many warm-up shots the ping-pong run asks JMH for. */
class WarmupShotsTest {
    @Test
    void shouldWarmUpForThreeShotsAtLeastAndNeverAtSmoke() {
        assertEquals(PingPong.MIN_WARMUP_SHOTS, PingPong.warmupShots(1), "quick: one was not enough");
        assertEquals(5, PingPong.warmupShots(5), "never fewer than the preset's");
        assertEquals(0, PingPong.warmupShots(0), "smoke checks the plumbing: no warm-up");
    }
}
