package dev.sympathy.ring;

/**
 * What one side of the ring knows about the other, from its pid and heartbeat
 * (see {@link RingFile#producerState(long)}).
 */
public enum PeerState {
    /** No process ever attached to that side (pid 0, heartbeat 0): "no messages yet". */
    NEVER_ATTACHED,
    /** Attached, its process exists and its heartbeat is recent. */
    ALIVE,
    /** It attached once and detached cleanly (pid back to 0, heartbeat set). */
    DETACHED,
    /** Its pid names no live process, or its heartbeat is older than the allowed staleness. */
    DEAD
}
