package dev.sympathy.ring;

/** The file cannot be opened for reading and writing. */
public final class PermissionDeniedException extends RingException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String path, Throwable cause) {
        super("permission-denied", path + ": permission denied: the ring file must be readable and writable by this user", cause);
    }
}
