package dev.sympathy.map;

/**
 * What a reader can tell about the map's writer (the Rust {@code WriterState}); the writer's
 * pid is {@link MapFile#writerPid()}.
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
    DEAD
}
