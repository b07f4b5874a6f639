package dev.sympathy.bridge;

/**
 * A bridge end cannot go on: a typed error whose message says what was wrong and what to do.
 * {@link #kind()} names it in the words both command lines print.
 */
public final class BridgeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String kind;

    public BridgeException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    /** The error's name, e.g. {@code message-too-long}, {@code bad-state-file}. */
    public String kind() {
        return kind;
    }
}
