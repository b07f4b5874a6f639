package dev.sympathy.jmh.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many warm-up shots the serialization run asks JMH for. */
class WarmupShotsTest {
    @Test
    void shouldWarmUpForAMillionRoundTripsWithinTheCapAndNeverAtSmoke() {
        assertEquals(10, Serialization.warmupShots(100_000, 1), "quick: ten shots of 100k");
        assertEquals(2, Serialization.warmupShots(1_000_000, 2), "default: the preset's two suffice");
        assertEquals(3, Serialization.warmupShots(1_000_000, 3), "full: never fewer than the preset's");
        assertEquals(4, Serialization.warmupShots(300_000, 1), "a part shot rounds up");
        assertEquals(Serialization.MAX_WARMUP_SHOTS, Serialization.warmupShots(10, 1), "capped");
        assertEquals(0, Serialization.warmupShots(1_000, 0), "smoke checks the plumbing: no warm-up");
    }

    @Test
    void shouldWarmJavaSerializationUpForFewerRoundTrips() {
        assertEquals(3, Serialization.warmupShots(100_000, 1, "java-serialization"), "quick: three shots of 100k");
        assertEquals(10, Serialization.warmupShots(100_000, 1, "sbe"), "the other codecs as before");
        assertEquals(2, Serialization.warmupShots(1_000_000, 2, "java-serialization"), "never fewer than the preset's");
        assertEquals(0, Serialization.warmupShots(1_000, 0, "java-serialization"), "smoke: none");
    }

    @Test
    void shouldSizeTheYoungGenerationForTwoShotsOfDecodedOrders() {
        assertEquals(64, Serialization.youngGenMib(1_000), "the floor");
        assertEquals(488, Serialization.youngGenMib(1_000_000), "1M orders of 256 bytes, twice");
    }
}
