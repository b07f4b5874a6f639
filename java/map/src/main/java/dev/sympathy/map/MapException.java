package dev.sympathy.map;

/**
 * Base of every error the map reports (its {@link #kind()} from
 * {@link dev.sympathy.mapped.MappedFileException}, the same names as the Rust {@code MapError::kind}). Each kind of error has its own subclass (the kinds of the
 * Rust {@code MapError}), and every message says what was wrong and what to do.
 */
public abstract class MapException extends dev.sympathy.mapped.MappedFileException {
    private static final long serialVersionUID = 1L;

    /** A subclass whose error has a cause gives it with {@link #initCause(Throwable)}. */
    protected MapException(String kind, String message) {
        super(kind, message);
    }
}
