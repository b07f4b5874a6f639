package dev.sympathy.bridge;

/**
 * The bridge's two frames on Aeron: one home for their layout. Little-endian, as the ring.
 *
 * <pre>
 * Data frame (sender -> receiver, the data stream): one ring record, its type and payload unchanged
 *
 *  0        8        16       24       28       32
 *  +--------+--------+--------+--------+--------+------------------------+
 *  | from   | to     | source | type   | rewind | payload (ring record's) |
 *  +--------+--------+--------+--------+--------+------------------------+
 *   from   (i64) source ring position where this record's read began: the end of the message
 *                sent before it (padding between the two is skipped)
 *   to     (i64) source ring position after this record
 *   source (i64) the source ring's identity (its creation time, ms since the Unix epoch)
 *   type   (i32) the record's message type (>= 1)
 *   rewind (i32) the last rewind request of the receiver that this sender obeyed
 *
 * Confirm frame (receiver -> sender, the confirm stream)
 *
 *  0           8        16       20       24
 *  +-----------+--------+--------+--------+
 *  | confirmed | source | rewind | unused |
 *  +-----------+--------+--------+--------+
 *   confirmed (i64) source position up to which the receiver has written into its ring; -1 when
 *                   it knows of no source yet
 *   source    (i64) the source that position belongs to (0: none yet)
 *   rewind    (i32) the receiver's current rewind request: a sender that sees a new value sends
 *                   again from its oldest unconfirmed record
 * </pre>
 *
 * <p>The receiver writes a data frame only when its {@code from} is the position it has
 * confirmed so far (so order is kept and nothing skipped), drops one whose {@code to} it has
 * already passed (a repeat), and answers a gap with a new rewind request.
 */
public final class BridgeFrames {
    private BridgeFrames() {}

    public static final int DATA_FROM_OFFSET = 0;
    public static final int DATA_TO_OFFSET = 8;
    public static final int DATA_SOURCE_OFFSET = 16;
    public static final int DATA_TYPE_OFFSET = 24;
    public static final int DATA_REWIND_OFFSET = 28;
    /** Bytes before the payload in a data frame. */
    public static final int DATA_HEADER_LENGTH = 32;

    public static final int CONFIRM_POSITION_OFFSET = 0;
    public static final int CONFIRM_SOURCE_OFFSET = 8;
    public static final int CONFIRM_REWIND_OFFSET = 16;
    /** Bytes in a confirm frame. */
    public static final int CONFIRM_LENGTH = 24;

    /** {@code confirmed} of a receiver that knows of no source yet. */
    public static final long NOTHING_CONFIRMED = -1;
}
