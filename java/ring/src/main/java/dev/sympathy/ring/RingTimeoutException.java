package dev.sympathy.ring;

/** Waiting for the ring (ready flag, a peer, progress) took longer than allowed. */
public final class RingTimeoutException extends RingException {
    private static final long serialVersionUID = 1L;

    public RingTimeoutException(String what, long waitedMs) {
        super("timeout", "timed out after " + waitedMs + " ms waiting for " + what);
    }
}
