package dev.sympathy.map;

/** The operating system refused access to the file (kind {@code permission-denied}). */
public final class PermissionDeniedException extends MapException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String path, String operation) {
        super("permission-denied", path + ": permission denied while trying to " + operation + "; check the file's owner and mode (a reader needs read access, a writer read and write)");
    }
}
