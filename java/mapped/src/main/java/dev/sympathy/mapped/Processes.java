package dev.sympathy.mapped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Whether a process named in a shared file still runs: the Rust crate sympathy-mapped's
 * {@code pid_alive} and {@code /proc/<pid>/stat} reading, with the same answers.
 *
 * <pre>{@code
 * boolean running = Processes.alive(pid);   // false for an exited process, a zombie, pid 0
 * }</pre>
 */
public final class Processes {
    private Processes() {}

    /** {@link #currentBoot()}, read once. */
    private static final long BOOT = readBoot();

    /**
     * The running system's boot, as a u64: the first 16 hex digits of
     * {@code /proc/sys/kernel/random/boot_id} (a UUID the kernel draws at each boot), 0 when it
     * cannot be read; the Rust {@code sympathy_mapped::current_boot}. A file records it beside
     * what a crash of the operating system could have left part-written, so that a later boot
     * knows to check it (the map's record checksums).
     */
    public static long currentBoot() {
        return BOOT;
    }

    private static long readBoot() {
        try {
            return bootFromId(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")));
        } catch (IOException | SecurityException e) {
            return 0;
        }
    }

    /** The boot of a {@code boot_id} text: its first 16 hex digits (dashes skipped), 0 if it has fewer. */
    static long bootFromId(String id) {
        StringBuilder digits = new StringBuilder(16);
        for (int i = 0; i < id.length() && digits.length() < 16; i++) {
            char c = id.charAt(i);
            if (c == '-') {
                continue;
            }
            if (Character.digit(c, 16) < 0) {
                break;
            }
            digits.append(c);
        }
        return digits.length() == 16 ? Long.parseUnsignedLong(digits.toString(), 16) : 0;
    }

    /**
     * True when a process with this pid exists and has not exited: {@link ProcessHandle} finds
     * it and {@code /proc/<pid>/stat} does not show it as a zombie ({@code Z}) or dead
     * ({@code X}). A zombie has exited, only its exit status waits for its parent;
     * {@code ProcessHandle.isAlive} reports it alive. Without a readable {@code /proc} the
     * {@code ProcessHandle} answer stands.
     */
    public static boolean alive(long pid) {
        if (pid <= 0 || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        byte[] stat;
        try {
            stat = Files.readAllBytes(Path.of("/proc/" + pid + "/stat"));
        } catch (NoSuchFileException e) {
            return !Files.isDirectory(Path.of("/proc/self")); // gone since, unless there is no /proc
        } catch (IOException | SecurityException e) {
            return true;
        }
        int state = stateLetter(stat);
        return state != 'Z' && state != 'X' && state != 'x';
    }

    /** The text of {@code /proc/<pid>/stat}, or null. */
    static byte[] stat(long pid) {
        try {
            return Files.readAllBytes(Path.of("/proc/" + pid + "/stat"));
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /**
     * The state letter of the text of a {@code /proc/<pid>/stat} file, or -1: the first
     * non-blank byte after the last {@code ')'} (the command name before it, in parentheses,
     * may itself hold {@code ')'} and blanks).
     */
    public static int stateLetter(byte[] stat) {
        int field = fieldStart(stat, 0);
        return field < 0 ? -1 : stat[field] & 0xFF;
    }

    /**
     * The start time in a {@code /proc/<pid>/stat} text (field 22 of proc(5): clock ticks after
     * boot), or -1.
     */
    public static long startTicks(byte[] stat) {
        int at = fieldStart(stat, 19); // field 3, the state, is the first after the name
        if (at < 0) {
            return -1;
        }
        long ticks = 0;
        int digits = 0;
        while (at < stat.length && stat[at] >= '0' && stat[at] <= '9') {
            ticks = ticks * 10 + (stat[at++] - '0');
            digits++;
        }
        return digits == 0 || digits > 18 ? -1 : ticks;
    }

    /** Where the {@code n}-th blank-separated field after the last {@code ')'} starts, or -1. */
    private static int fieldStart(byte[] stat, int n) {
        int at = -1;
        for (int i = stat.length - 1; i >= 0; i--) {
            if (stat[i] == ')') {
                at = i + 1;
                break;
            }
        }
        if (at < 0) {
            return -1;
        }
        for (int field = 0; ; field++) {
            while (at < stat.length && Character.isWhitespace(stat[at])) {
                at++;
            }
            if (at >= stat.length) {
                return -1;
            }
            if (field == n) {
                return at;
            }
            while (at < stat.length && !Character.isWhitespace(stat[at])) {
                at++;
            }
        }
    }
}
