package dev.sympathy.mapped;

/**
 * A process named the way a shared file records it (the Rust {@code ProcessStamp}): its pid
 * and the low 32 bits of its start time (clock ticks after boot, {@code /proc/<pid>/stat} field
 * 22), packed into one 64-bit word so that one compare-and-swap claims a role. A pid alone names
 * a process only while it runs: the kernel gives it to another process later (after a reboot
 * certainly, and a file on disk outlives its writers). A start of 0 means "not known" (no
 * {@code /proc}); then the pid alone decides.
 *
 * <pre>{@code
 * long word = ProcessStamp.current().pack();          // what a writer stores
 * boolean running = ProcessStamp.unpack(word).isRunning();
 * }</pre>
 *
 * @param pid the pid (0: nobody)
 * @param start the low 32 bits of its start time in clock ticks after boot (0: not known)
 */
public record ProcessStamp(int pid, int start) {
    /** Nobody: packs to 0. */
    public static final ProcessStamp NOBODY = new ProcessStamp(0, 0);

    /** This process (read from /proc once). */
    public static ProcessStamp current() {
        return Current.STAMP;
    }

    /** This process's stamp, made on first use. */
    private static final class Current {
        static final ProcessStamp STAMP = make();

        private static ProcessStamp make() {
            int pid = (int) ProcessHandle.current().pid();
            return new ProcessStamp(pid, startOf(pid));
        }
    }

    /** The pid in the low 32 bits, the start in the high 32: the word a file stores. */
    public long pack() {
        return (pid & 0xFFFF_FFFFL) | ((long) start << 32);
    }

    /** The stamp a file's word holds. */
    public static ProcessStamp unpack(long word) {
        return new ProcessStamp((int) word, (int) (word >>> 32));
    }

    /** True for {@link #NOBODY}. */
    public boolean isNobody() {
        return pid == 0;
    }

    /**
     * True when the process still runs: its pid is alive ({@link Processes#alive}) and, when
     * both start times are known, the process with that pid started when this one did.
     */
    public boolean isRunning() {
        if (!Processes.alive(pid)) {
            return false;
        }
        int now = startOf(pid);
        return start == 0 || now == 0 || start == now;
    }

    /** The low 32 bits of the start time of {@code pid}, or 0 if {@code /proc} does not tell it. */
    static int startOf(long pid) {
        byte[] stat = Processes.stat(pid);
        long ticks = stat == null ? -1 : Processes.startTicks(stat);
        return ticks < 0 ? 0 : (int) ticks;
    }
}
