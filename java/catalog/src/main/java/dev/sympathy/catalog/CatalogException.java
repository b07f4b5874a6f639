package dev.sympathy.catalog;

/**
 * The catalog could not be read or does not hold what was asked for; the message says which file
 * or entry, and what to do.
 */
public final class CatalogException extends RuntimeException {
    /** An error with its message. */
    public CatalogException(String message) {
        super(message);
    }

    /** An error caused by {@code cause} (a parse error, an unreadable file). */
    public CatalogException(String message, Throwable cause) {
        super(message, cause);
    }

    private static final long serialVersionUID = 1L;
}
