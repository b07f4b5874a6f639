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
        this.lastMs = System.currentTimeMillis();
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
