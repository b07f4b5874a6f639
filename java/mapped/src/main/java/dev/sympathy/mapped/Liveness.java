package dev.sympathy.mapped;

import java.util.function.IntPredicate;

/**
 * What can be told about the process that holds a role of a mapped file (the ring's producer or
 * consumer, the map's writer) from the role's header words: the Rust
 * {@code sympathy_mapped::liveness::PeerState} and its {@code classify}, with the same answers.
 * The ring shows it as its {@code PeerState}, the map as its {@code WriterState}.
 *
 * <pre>{@code
 * long now = System.currentTimeMillis();
 * Liveness state = Liveness.classify(new Sighting(42, now - 10, 0), Progress.NONE, now,
 *         Liveness.HEARTBEAT_STALE_MS, pid -> true);
 * assert state == Liveness.ALIVE && !state.isGone();
 * }</pre>
 */
public enum Liveness {
    /** No process ever held the role (pid 0, heartbeat 0, no progress seen). */
    NEVER_ATTACHED,
    /**
     * Attached, its process runs and its last sign of life (heartbeat or progress) is recent. With
     * pid 0: a foreign peer that keeps no pid (an Agrona consumer storing the trailer heartbeat,
     * a producer moving the tail).
     */
    ALIVE,
    /**
     * Attached and its process runs, but its last sign of life is older than the stale limit:
     * paused (SIGSTOP, Ctrl-Z, a long GC), stalled, or idle without heartbeating. Never gone: it
     * may resume. With pid 0: a foreign peer gone quiet.
     */
    STALE,
    /** It detached cleanly (pid back to 0, its last heartbeat recorded as the detach). */
    DETACHED,
    /** Its pid names no running process (it exited, was killed, or is a zombie not yet reaped). */
    DEAD;

    /** A last sign of life older than this (ms) reads as {@link #STALE}, never as gone. */
    public static final long HEARTBEAT_STALE_MS = 5_000;

    /** True for a holder that has gone for good: {@link #DETACHED} or {@link #DEAD} (never {@link #STALE}). */
    public boolean isGone() {
        return this == DETACHED || this == DEAD;
    }

    /** True for a holder that is attached (through the header, or a foreign one): {@link #ALIVE} or {@link #STALE}. */
    public boolean isAttached() {
        return this == ALIVE || this == STALE;
    }

    /**
     * The state from one {@link Sighting}, the holder's last seen {@link Progress}, the time and
     * the stale limit.
     * <ul>
     *   <li>pid set: {@link #DEAD} if {@code alive} says no such process runs; otherwise its last
     *       sign of life is its heartbeat (none yet when the heartbeat is not newer than the detach
     *       record: it is between its attach and its first heartbeat, age 0) or its progress,
     *       whichever is later: {@link #STALE} when older than {@code staleMs}, {@link #ALIVE}
     *       otherwise.</li>
     *   <li>pid 0: its heartbeat counts when newer than {@code detachedMs} (a foreign peer's,
     *       stored after the last clean detach), its progress when it moved after a look later
     *       than {@code detachedMs}. With neither: {@link #NEVER_ATTACHED} (heartbeat 0) or
     *       {@link #DETACHED}; with either, a foreign peer, alive or stale by the later one's age.
     *       A kind that keeps no foreign holders (the map's writer) decides pid 0 itself.</li>
     * </ul>
     *
     * @param alive whether a pid names a running process ({@link Processes#alive}, or a
     *     {@link ProcessStamp}'s {@link ProcessStamp#isRunning} where the role keeps one)
     */
    public static Liveness classify(Sighting s, Progress progress, long nowMs, long staleMs, IntPredicate alive) {
        if (s.pid() != 0) {
            if (!alive.test(s.pid())) {
                return DEAD;
            }
            long beat = s.heartbeatMs() > s.detachedMs() ? s.heartbeatMs() : nowMs; // attached, not yet beaten
            return byAge(Math.max(beat, progress.seenMs()), nowMs, staleMs);
        }
        long beat = s.heartbeatMs() > s.detachedMs() ? s.heartbeatMs() : 0;
        long moved = progress.seenMs() != 0 && progress.afterMs() > s.detachedMs() ? progress.seenMs() : 0;
        long last = Math.max(beat, moved);
        if (last == 0) {
            return s.heartbeatMs() == 0 ? NEVER_ATTACHED : DETACHED;
        }
        return byAge(last, nowMs, staleMs);
    }

    private static Liveness byAge(long lastMs, long nowMs, long staleMs) {
        return nowMs - lastMs > staleMs ? STALE : ALIVE;
    }
}
