package dev.sympathy.app;

/**
 * Keeps one side's heartbeat fresh from a hot loop at almost no cost: {@link #tick()} reads the
 * clock once every 1024 calls and beats when {@link #PERIOD_MS} has passed. Call it on every
 * path of the loop (busy, waiting for room, waiting for data): a side that is busy for longer
 * than the peer's staleness limit without beating looks dead to its peer.
 */
final class Heartbeat {
    /** How often, at most, a heartbeat is stored. */
    static final long PERIOD_MS = 100;

    private final Runnable beat;
    private long calls;
    private long lastMs;

    Heartbeat(Runnable beat) {
        this.beat = beat;
        // Long ago: the first look at the clock beats again, so that the beating path runs while
        // a loop warms up. A branch a loop never took is compiled by C2 as an uncommon trap, and
        // the first beat of a timed part would deoptimize the loop (a millisecond-long outlier).
        this.lastMs = Long.MIN_VALUE / 2;
        beat.run();
    }

    /** {@link #tick()} for loops that sleep between calls (the futex wait): looks at the clock every call. */
    void tickAfterSleep() {
        long now = System.currentTimeMillis();
        if (now - lastMs >= PERIOD_MS) {
            beat.run();
            lastMs = now;
        }
    }

    void tick() {
        if ((++calls & 1023) == 0) {
            long now = System.currentTimeMillis();
            if (now - lastMs >= PERIOD_MS) {
                beat.run();
                lastMs = now;
            }
        }
    }
}
