package dev.sympathy.mapped;

/**
 * The holder of a role moved its position between two looks (the ring's tail for a producer,
 * its head for a consumer): progress is a sign of life even without a heartbeat. The Rust
 * {@code sympathy_mapped::liveness::Progress}; {@link #NONE} stands for its {@code None}.
 *
 * <pre>{@code
 * Progress moved = new Progress(previousLookMs, nowMs);   // the position differed at this look
 * }</pre>
 *
 * @param afterMs the last look that saw the old position, ms since the epoch
 * @param seenMs the look that saw it moved, ms since the epoch (0: no move seen)
 */
public record Progress(long afterMs, long seenMs) {
    /** No move seen (an observer with no memory of earlier looks). */
    public static final Progress NONE = new Progress(0, 0);
}
