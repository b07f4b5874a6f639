package dev.sympathy.ring;

import java.util.function.IntPredicate;

/**
 * What one side of the ring knows about the other, from its pid, heartbeat, detach record and
 * progress (see {@link RingFile#producerState(long)} and {@link PeerWatch}); the rules of
 * docs/ring-layout.md, "Attaching, heartbeats and liveness", the same as the Rust ring's.
 *
 * <pre>{@code
 * PeerState producer = ring.producerState(5_000);
 * if (producer.isGone()) { ... }        // DETACHED or DEAD: never STALE
 * }</pre>
 */
public enum PeerState {
    /** No process ever attached to that side (pid 0, heartbeat 0, no progress seen): "no messages yet". */
    NEVER_ATTACHED,
    /**
     * Attached, its process exists and its last sign of life (heartbeat or progress) is recent.
     * With pid 0: a foreign peer that uses only the ring region (Agrona's OneToOneRingBuffer or
     * Aeron's C ring: a consumer storing the trailer heartbeat, a producer moving the tail).
     */
    ALIVE,
    /**
     * Attached and its process exists, but its last sign of life is older than the stale limit:
     * paused (SIGSTOP, Ctrl-Z, a long GC), stalled, or idle without heartbeating. Never gone: it
     * may resume. With pid 0: a foreign peer gone quiet.
     */
    STALE,
    /** It detached cleanly (pid back to 0, its last heartbeat recorded as the detach). */
    DETACHED,
    /** Its pid names no running process (it exited, was killed, or is a zombie not yet reaped). */
    DEAD;

    /** True for a peer that has gone for good: {@link #DETACHED} or {@link #DEAD} (never {@link #STALE}). */
    public boolean isGone() {
        return this == DETACHED || this == DEAD;
    }

    /** True for a peer that is attached (through the header, or a foreign one): {@link #ALIVE} or {@link #STALE}. */
    public boolean isAttached() {
        return this == ALIVE || this == STALE;
    }

    /**
     * The state from one look at a side's header words and its progress (the Rust ring's
     * {@code classify}; both must stay identical).
     * <ul>
     *   <li>pid set: {@link #DEAD} if no such process runs; otherwise its last sign of life is its
     *       heartbeat (none yet when the heartbeat is not newer than the detach record: it is
     *       between its attach and its first heartbeat, age 0) or its progress, whichever is
     *       later: {@link #STALE} when older than {@code staleMs}, {@link #ALIVE} otherwise.</li>
     *   <li>pid 0: its heartbeat counts when newer than {@code detachedMs} (a foreign peer's,
     *       stored after the last clean detach), its progress when it moved after a look later
     *       than {@code detachedMs}. With neither: {@link #NEVER_ATTACHED} (heartbeat 0) or
     *       {@link #DETACHED}; with either, a foreign peer, alive or stale by the later one's age.</li>
     * </ul>
     *
     * @param movedAfterMs the peer's position moved after this look (0 and 0: no move seen)
     * @param movedSeenMs the look that saw it moved
     * @param alive whether a pid names a running process ({@link SharedMemory#processAlive})
     */
    static PeerState classify(int pid, long heartbeatMs, long detachedMs, long movedAfterMs, long movedSeenMs,
            long nowMs, long staleMs, IntPredicate alive) {
        if (pid != 0) {
            if (!alive.test(pid)) {
                return DEAD;
            }
            long beat = heartbeatMs > detachedMs ? heartbeatMs : nowMs;
            return byAge(Math.max(beat, movedSeenMs), nowMs, staleMs);
        }
        long beat = heartbeatMs > detachedMs ? heartbeatMs : 0;
        long moved = movedSeenMs != 0 && movedAfterMs > detachedMs ? movedSeenMs : 0;
        long last = Math.max(beat, moved);
        if (last == 0) {
            return heartbeatMs == 0 ? NEVER_ATTACHED : DETACHED;
        }
        return byAge(last, nowMs, staleMs);
    }

    private static PeerState byAge(long lastMs, long nowMs, long staleMs) {
        return nowMs - lastMs > staleMs ? STALE : ALIVE;
    }
}
