package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;
import dev.sympathy.mapped.NoSpaceError;

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

    /** {@code path} needs {@code needed} bytes where {@code space} says what was free. */
    public NoSpaceException(String path, NoSpaceError space, long needed) {
        super("no-space", FileMessages.noSpace(RingDescriptor.KIND, path, space, needed));
        this.available = space.available();
        this.needed = needed;
    }

    /**
     * The same error from its parts (as the JNI ring reports it): {@code available} bytes free on
     * {@code filesystem}, {@code kept} of them left to other programs.
     */
    public NoSpaceException(String path, String filesystem, long available, long kept, long needed) {
        this(path, new NoSpaceError(filesystem, available, kept), needed);
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
