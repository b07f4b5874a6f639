package dev.sympathy.map.user;

/** A value that is not a well-formed encoded user (the Rust {@code CodecError}). */
public final class UserCodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserCodecException(String what) {
        super("not a well-formed user value: " + what);
    }

    public UserCodecException(String what, Throwable cause) {
        super("not a well-formed user value: " + what, cause);
    }
}
