package dev.sympathy.ring;

/**
 * Base of every error the ring reports. Each kind of error has its own subclass (the same kinds
 * as the Rust ring's error enum), and every message says what was wrong and what to do.
 * A full ring is not an error: {@code write} returns {@code false} (back pressure).
 */
public abstract class RingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected RingException(String message) {
        super(message);
    }

    protected RingException(String message, Throwable cause) {
        super(message, cause);
    }
}
