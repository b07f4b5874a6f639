package dev.sympathy.mapped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** The same answers as the Rust {@code sympathy_mapped::liveness} tests. */
class LivenessTest {
    private static final long NOW = 1_000_000;
    private static final long STALE = 5_000;

    private static Liveness state(int pid, long heartbeatMs, long detachedMs, Progress progress) {
        return Liveness.classify(new Sighting(pid, heartbeatMs, detachedMs), progress, NOW, STALE, p -> p != 666);
    }

    @Test
    void shouldTellAnAttachedHolderAliveStaleOrDead() {
        assertEquals(Liveness.ALIVE, state(42, NOW - 10, 0, Progress.NONE));
        assertEquals(Liveness.STALE, state(42, NOW - 6_000, 0, Progress.NONE));
        assertEquals(Liveness.DEAD, state(666, NOW, 0, Progress.NONE));
        // Between its attach and its first heartbeat (an old one from before the last detach).
        assertEquals(Liveness.ALIVE, state(42, 0, 0, Progress.NONE));
        assertEquals(Liveness.ALIVE, state(42, NOW - 9_000, NOW - 9_000, Progress.NONE));
        // Progress is a sign of life.
        assertEquals(Liveness.ALIVE, state(42, NOW - 9_000, 0, new Progress(NOW - 100, NOW - 50)));
    }

    @Test
    void shouldTellPidZeroNeverAttachedDetachedOrAForeignPeer() {
        assertEquals(Liveness.NEVER_ATTACHED, state(0, 0, 0, Progress.NONE));
        assertEquals(Liveness.DETACHED, state(0, NOW - 10, NOW - 10, Progress.NONE));
        assertEquals(Liveness.DETACHED, state(0, NOW - 9_000, NOW - 10, Progress.NONE));
        // A heartbeat after the last detach (Agrona's consumerHeartbeatTime), or with no detach.
        assertEquals(Liveness.ALIVE, state(0, NOW - 5, NOW - 10, Progress.NONE));
        assertEquals(Liveness.STALE, state(0, NOW - 7_000, 0, Progress.NONE));
        // A foreign producer: no heartbeat, but the tail moved after the last detach.
        Progress afterDetach = new Progress(NOW - 9, NOW - 1);
        assertEquals(Liveness.ALIVE, state(0, 0, 0, afterDetach));
        assertEquals(Liveness.ALIVE, state(0, NOW - 10, NOW - 10, afterDetach));
        // A move that may predate the detach (the detacher's last records) is no sign.
        assertEquals(Liveness.DETACHED, state(0, NOW - 10, NOW - 10, new Progress(NOW - 10, NOW - 1)));
    }

    @Test
    void shouldNeverCallStaleGone() {
        for (int pid : new int[] {0, 42}) {
            Liveness s = state(pid, NOW - 60_000, 0, Progress.NONE);
            assertEquals(Liveness.STALE, s);
            assertFalse(s.isGone());
        }
    }
}
