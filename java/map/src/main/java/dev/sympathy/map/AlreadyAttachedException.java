package dev.sympathy.map;

/** Another live process is the writer (kind {@code already-attached}). */
public final class AlreadyAttachedException extends MapException {
    private static final long serialVersionUID = 1L;

    private final int pid;

    public AlreadyAttachedException(int pid) {
        super("already-attached", "a writer is already attached (pid " + pid + "); a map takes one writer at a time: stop that process, or open the map to read only");
        this.pid = pid;
    }

    /** The writer's pid. */
    public int pid() {
        return pid;
    }
}
