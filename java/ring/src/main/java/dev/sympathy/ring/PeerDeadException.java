package dev.sympathy.ring;

/**
 * The process at the other end is gone: it died (its pid names no running process) or detached.
 * A stale peer (paused, stopped) is never reported so.
 */
public final class PeerDeadException extends RingException {
    private static final long serialVersionUID = 1L;

    private final int pid;

    public PeerDeadException(String side, int pid, String detail) {
        super("peer-dead", "the " + side + " (pid " + pid + ") is dead: " + detail);
        this.pid = pid;
    }

    /** The pid of the dead peer (0 if it detached). */
    public int pid() {
        return pid;
    }
}
