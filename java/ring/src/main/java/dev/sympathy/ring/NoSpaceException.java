package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/**
 * The filesystem cannot hold the ring file (kind {@code no-space}): found when {@link
 * RingFile#create} reserves the file's blocks (the half-made file is removed), or when {@link
 * RingFile#reserveSpace} allocates the holes of an existing sparse one, rather than as a
 * {@code SIGBUS} at the first write.
 */
public final class NoSpaceException extends RingException {
    private static final long serialVersionUID = 1L;

    private final long available;
    private final long needed;

    public NoSpaceException(String path, String filesystem, long available, long needed) {
        super("no-space", FileMessages.noSpace(RingDescriptor.KIND, path, filesystem, available, needed));
        this.available = available;
        this.needed = needed;
    }

    /** Bytes free on the filesystem (for unprivileged users). */
    public long available() {
        return available;
    }

    /** Bytes the file needs. */
    public long needed() {
        return needed;
    }
}
