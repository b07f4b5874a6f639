package dev.sympathy.ring;

import dev.sympathy.mapped.Progress;
import dev.sympathy.mapped.Sighting;

/**
 * The watch one side keeps on its peer (the Rust ring's {@code PeerWatch}): the peer's position
 * between looks, since progress is a sign of life even without a heartbeat (a foreign producer
 * has no heartbeat slot; the producer watches the head, the consumer the tail), and what this
 * side knew when it attached, to tell a departure it saw happen from one that predates it.
 * Obtained from {@link RingFile#watchProducer()} or {@link RingFile#watchConsumer()} right
 * after attaching. Not thread-safe: the side's one thread uses it.
 *
 * <pre>{@code
 * PeerWatch producer = ring.watchProducer();          // just after the consumer attached
 * PeerState state = producer.look(5_000);
 * if (producer.hasLeft(state)) { drain(); fail("producer " + state); }
 * // otherwise wait on (a stale producer may resume, a reused ring may get a new producer)
 * }</pre>
 */
public final class PeerWatch {
    private final RingFile ring;
    /** True when the watched peer is the producer. */
    private final boolean producer;
    /** When this side attached (ms since the epoch). */
    private final long attachedMs;
    /** Whether records were waiting when this side (a consumer) attached. */
    private final boolean pendingAtAttach;
    /** Whether a look ever found the peer attached (alive or stale). */
    private boolean sawAttached;
    /** The peer's position at the last look, and when that look was. */
    private long position;
    private long lookedMs;
    /** The last move seen ({@link Progress#NONE}: none yet). */
    private Progress moved = Progress.NONE;
    /** The last look's header words. */
    private Sighting last = Sighting.NONE;

    PeerWatch(RingFile ring, boolean producer, boolean pendingAtAttach) {
        this.ring = ring;
        this.producer = producer;
        this.pendingAtAttach = pendingAtAttach;
        this.attachedMs = System.currentTimeMillis();
        this.lookedMs = attachedMs;
        this.position = watchedPosition();
    }

    /**
     * Looks at the peer now; see {@link PeerState#classify}.
     *
     * @param staleMs the age of its last sign of life above which it reads as {@link PeerState#STALE}
     */
    public PeerState look(long staleMs) {
        long now = System.currentTimeMillis();
        long at = watchedPosition();
        if (at != position) {
            position = at;
            moved = new Progress(lookedMs, now);
        }
        lookedMs = now;
        last = ring.sight(producer);
        PeerState state = PeerState.classify(last, moved, now, staleMs, SharedMemory::processAlive);
        if (state.isAttached()) {
            sawAttached = true;
        }
        return state;
    }

    /**
     * Whether {@code state} (from the last {@link #look}) is a peer that left while this side
     * counted on it: gone (detached or dead) and news to this side, because this side saw it
     * attached, or it left after this side attached (its detach record, or for a dead one its
     * last heartbeat, is not older than the attach), or records were waiting when this side
     * attached. An older departure is a ring being reused: wait for a new peer instead.
     */
    public boolean hasLeft(PeerState state) {
        long when = switch (state) {
            case DETACHED -> last.detachedMs();
            case DEAD -> last.heartbeatMs();
            default -> Long.MIN_VALUE;
        };
        return when != Long.MIN_VALUE && (pendingAtAttach || sawAttached || when >= attachedMs);
    }

    /** The peer's pid at the last look (0: none through the header, or a foreign peer). */
    public int pid() {
        return last.pid();
    }

    /** Age in ms of the peer's heartbeat at the last look, or -1 if it never stored one. */
    public long heartbeatAgeMs() {
        return last.heartbeatMs() == 0 ? -1 : Math.max(0, lookedMs - last.heartbeatMs());
    }

    private long watchedPosition() {
        return producer ? ring.tailPosition() : ring.headPosition();
    }
}
