package dev.sympathy.ring;

/** Another live process already holds the producer or consumer side. */
public final class AlreadyAttachedException extends RingException {
    private static final long serialVersionUID = 1L;

    private final int pid;

    public AlreadyAttachedException(String path, String side, int pid) {
        super("already-attached", path + ": a " + side + " is already attached (pid " + pid
                + ", alive); a ring has one producer and one consumer: stop that process first");
        this.pid = pid;
    }

    /** The pid of the process holding the side. */
    public int pid() {
        return pid;
    }
}
