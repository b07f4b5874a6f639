package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/** Waiting for the ring (ready flag, a peer, progress) took longer than allowed. */
public final class RingTimeoutException extends RingException {
    private static final long serialVersionUID = 1L;

    public RingTimeoutException(String what, long waitedMs) {
        super("timeout", "timed out after " + waitedMs + " ms waiting for " + what);
    }

    private RingTimeoutException(String message) {
        super("timeout", message);
    }

    /** The ring's creator never set {@code ready} within {@code waited}. */
    public static RingTimeoutException notReady(java.time.Duration waited) {
        return new RingTimeoutException(FileMessages.notReady(RingDescriptor.KIND, waited));
    }
}
