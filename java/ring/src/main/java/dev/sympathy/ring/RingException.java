package dev.sympathy.ring;

/**
 * Base of every error the ring reports (its {@link #kind()} from
 * {@link dev.sympathy.mapped.MappedFileException}, the same names as the Rust {@code RingError::kind}). Each kind of error has its own subclass (the same kinds
 * as the Rust ring's error enum), and every message says what was wrong and what to do.
 * A full ring is not an error: {@code write} returns {@code false} (back pressure).
 */
public abstract class RingException extends dev.sympathy.mapped.MappedFileException {
    private static final long serialVersionUID = 1L;

    /** A subclass whose error has a cause gives it with {@link #initCause(Throwable)}. */
    protected RingException(String kind, String message) {
        super(kind, message);
    }
}
