package dev.sympathy.mapped;

import java.io.IOException;

/**
 * The filesystem has no room for a file's blocks ({@code ENOSPC}, {@code EFBIG} or
 * {@code EDQUOT}), found by {@link FileSpace}; the ring and the map turn it into their own
 * {@code no-space} errors, worded for their files.
 */
public final class NoSpaceError extends IOException {
    private static final long serialVersionUID = 1L;

    private final String filesystem;
    private final long available;
    private final long kept;

    public NoSpaceError(String filesystem, long available, long kept) {
        super(filesystem + " has no room for the file (" + available + " bytes free, " + kept
                + " of them kept free for other programs)");
        this.filesystem = filesystem;
        this.available = available;
        this.kept = kept;
    }

    /** The filesystem: its mount point and type ({@code df -T}-style), or the directory. */
    public String filesystem() {
        return filesystem;
    }

    /** Bytes free on it for unprivileged users (0 if unknown). */
    public long available() {
        return available;
    }

    /** Bytes of it a reservation leaves to other programs ({@link FileSpace#keptFree}). */
    public long kept() {
        return kept;
    }
}
