package dev.sympathy.map;

import dev.sympathy.mapped.Liveness;

/**
 * What a reader can tell about the map's writer (the Rust {@code WriterState}), by the liveness
 * rules every mapped file shares ({@link Liveness}); the writer's pid is
 * {@link MapFile#writerPid()}.
 *
 * <pre>{@code
 * if (map.writerState() == WriterState.DEAD) { ... }   // the next writer takes over and recounts
 * }</pre>
 */
public enum WriterState {
    /** No writer ever attached. */
    NEVER_ATTACHED,
    /** The last writer detached cleanly. */
    DETACHED,
    /** A writer is attached, runs, and beat its heart within the stale limit. */
    ALIVE,
    /** A writer is attached and runs, but has not beaten its heart for a while; never gone. */
    STALE,
    /** The attached writer no longer runs: the next writer takes over and recounts. */
    DEAD;

    /** The map's name for a state of the shared liveness rules. */
    static WriterState of(Liveness liveness) {
        return switch (liveness) {
            case NEVER_ATTACHED -> NEVER_ATTACHED;
            case DETACHED -> DETACHED;
            case ALIVE -> ALIVE;
            case STALE -> STALE;
            case DEAD -> DEAD;
        };
    }
}
