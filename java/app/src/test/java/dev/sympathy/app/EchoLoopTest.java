package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.RingFile;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pinging end of an echo run: how long it warms up, and that it times the last round trips. */
class EchoLoopTest {
    @TempDir
    Path dir;

    @Test
    void shouldWarmUpForATenthTheFloorOrTwoLapsOfTheRingWhicheverIsMost() {
        assertEquals(2_000_000, EchoLoop.warmup(20_000_000, 262_144, 4), "a tenth");
        // The quick preset's 100k timed round trips once warmed up for 10k: less than one lap of
        // a 256 KiB ring (16384 records of 16 bytes), so the first lap fell in the timed part.
        assertTrue(EchoLoop.warmup(100_000, 262_144, 4) >= 2 * 262_144 / 16, "two laps at the least");
        assertEquals(EchoLoop.MIN_WARMUP, EchoLoop.warmup(2_000, 262_144, 4), "the floor");
        assertEquals(1_000_000, EchoLoop.MIN_WARMUP, "the floor the Rust pinger keeps too (ipc::MIN_WARMUP)");
        assertEquals(2L * (1 << 26) / 16, EchoLoop.warmup(2_000, 1 << 26, 4), "two laps of 16-byte records");
        assertEquals(2L * (1 << 26) / 48, EchoLoop.warmup(2_000, 1 << 26, 33), "records are 8-aligned");
    }

    @Test
    void shouldFillEverySlotWithTheTimedRoundTripsAndVerifyEveryEcho() throws Exception {
        Process alive = new ProcessBuilder("sleep", "60").start(); // the echo process it looks at
        RingImpl ffm = Impls.byName("test", "ffm");
        try (RingFile ping = RingFile.create(dir.resolve("ping"), 4096);
                RingFile pong = RingFile.create(dir.resolve("pong"), 4096)) {
            long warmup = 1_000;
            long[] rtt = new long[777]; // not a divisor of the total: slot i mod 777 wraps mid-way
            Arrays.fill(rtt, -1);
            Thread echo = new Thread(() -> {
                try (RingImpl.ConsumerEnd in = ffm.consumer(ping, new MessageCheck(0));
                        RingImpl.ProducerEnd out = ffm.producer(pong)) {
                    long echoed = 0;
                    while (echoed < warmup + rtt.length) {
                        echoed += in.echo(out, 16);
                    }
                }
            });
            echo.start();
            MessageCheck check = new MessageCheck(0);
            EchoLoop.run(ffm, ping, pong, check, alive, new byte[12], 12, warmup, rtt);
            echo.join();
            assertEquals(warmup + rtt.length, check.received(), "every echo verified");
            assertTrue(Arrays.stream(rtt).allMatch(t -> t >= 0), "every slot holds a round trip");
        } finally {
            alive.destroy();
        }
    }
}
