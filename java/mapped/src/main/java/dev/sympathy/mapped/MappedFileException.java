package dev.sympathy.mapped;

/**
 * Base of every error of a mapped file (the ring's {@code RingException}, the map's
 * {@code MapException}): each kind of error has its own subclass, and every message says what was
 * wrong and what to do.
 */
public abstract class MappedFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String kind;

    /** An error of {@code kind}; one with a cause gives it with {@link #initCause(Throwable)}. */
    protected MappedFileException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    /**
     * The kind of error as a stable lower-kebab name, the same one the Rust error's
     * {@code kind()} gives for the same failure ({@code not-a-ring-file}, {@code file-length},
     * {@code no-space}, ...); the conformance suites check both languages against one manifest.
     *
     * <pre>{@code
     * catch (MappedFileException e) { if (e.kind().equals("timeout")) retry(); else throw e; }
     * }</pre>
     */
    public final String kind() {
        return kind;
    }
}
