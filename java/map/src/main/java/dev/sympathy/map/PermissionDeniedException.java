package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** The operating system refused access to the file (kind {@code permission-denied}). */
public final class PermissionDeniedException extends MapException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String path, String operation) {
        super("permission-denied", FileMessages.permissionDenied(MapDescriptor.KIND, path, operation));
    }
}
