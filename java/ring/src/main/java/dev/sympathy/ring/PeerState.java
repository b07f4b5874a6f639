package dev.sympathy.ring;

import dev.sympathy.mapped.Liveness;
import dev.sympathy.mapped.Progress;
import dev.sympathy.mapped.Sighting;
import java.util.function.IntPredicate;

/**
 * What one side of the ring knows about the other, from its pid, heartbeat, detach record and
 * progress (see {@link RingFile#producerState(long)} and {@link PeerWatch}); the rules of
 * docs/ring-layout.md, "Attaching, heartbeats and liveness", which every mapped file shares
 * ({@link Liveness}, the same as the Rust {@code sympathy_mapped::liveness}).
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
     * The state from one look at a side's header words and its progress: the rules every mapped
     * file shares ({@link Liveness#classify}, the Rust {@code sympathy_mapped::liveness::classify};
     * both must stay identical), foreign peers included.
     *
     * @param movedAfterMs the peer's position moved after this look (0 and 0: no move seen)
     * @param movedSeenMs the look that saw it moved
     * @param alive whether a pid names a running process ({@link SharedMemory#processAlive})
     */
    static PeerState classify(int pid, long heartbeatMs, long detachedMs, long movedAfterMs, long movedSeenMs,
            long nowMs, long staleMs, IntPredicate alive) {
        return classify(new Sighting(pid, heartbeatMs, detachedMs), new Progress(movedAfterMs, movedSeenMs), nowMs,
                staleMs, alive);
    }

    /** {@link #classify(int, long, long, long, long, long, long, IntPredicate)} of one {@link Sighting}. */
    static PeerState classify(Sighting sighting, Progress progress, long nowMs, long staleMs, IntPredicate alive) {
        return of(Liveness.classify(sighting, progress, nowMs, staleMs, alive));
    }

    /** The ring's name for a state of the shared liveness rules. */
    static PeerState of(Liveness liveness) {
        return switch (liveness) {
            case NEVER_ATTACHED -> NEVER_ATTACHED;
            case ALIVE -> ALIVE;
            case STALE -> STALE;
            case DETACHED -> DETACHED;
            case DEAD -> DEAD;
        };
    }
}
