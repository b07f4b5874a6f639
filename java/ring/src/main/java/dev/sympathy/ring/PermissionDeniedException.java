package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/** The file cannot be opened for reading and writing. */
public final class PermissionDeniedException extends RingException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String path, Throwable cause) {
        super("permission-denied", FileMessages.permissionDenied(RingDescriptor.KIND, path, "open the ring file"));
        initCause(cause);
    }
}
