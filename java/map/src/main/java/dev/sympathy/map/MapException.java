package dev.sympathy.map;

/**
 * Base of every error the map reports. Each kind of error has its own subclass (the kinds of the
 * Rust {@code MapError}), and every message says what was wrong and what to do.
 */
public abstract class MapException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String kind;

    protected MapException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    protected MapException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /**
     * The kind of error as a stable lower-kebab name, the one the Rust map's
     * {@code MapError::kind} gives for the same failure ({@code not-a-map-file},
     * {@code file-length}, {@code full}, ...); the conformance suite in
     * {@code crates/map/tests/conformance/} checks both languages against one manifest.
     *
     * <pre>{@code
     * catch (MapException e) { if (e.kind().equals("full")) copyIntoALargerMap(); else throw e; }
     * }</pre>
     */
    public final String kind() {
        return kind;
    }
}
