package dev.sympathy.ring;

/**
 * Base of every error the ring reports. Each kind of error has its own subclass (the same kinds
 * as the Rust ring's error enum), and every message says what was wrong and what to do.
 * A full ring is not an error: {@code write} returns {@code false} (back pressure).
 */
public abstract class RingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String kind;

    protected RingException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    protected RingException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /**
     * The kind of error as a stable lower-kebab name, the same one the Rust ring's
     * {@code RingError::kind} gives for the same failure ({@code not-a-ring-file},
     * {@code file-length}, {@code corrupt-record}, ...). The conformance suite in
     * {@code crates/ring/tests/conformance/} checks both languages against one manifest.
     *
     * <pre>{@code
     * catch (RingException e) { if (e.kind().equals("timeout")) retry(); else throw e; }
     * }</pre>
     */
    public final String kind() {
        return kind;
    }
}
