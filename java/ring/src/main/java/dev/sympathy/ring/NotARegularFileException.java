package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/**
 * The path names something other than a regular file (a directory, a FIFO, a device such as
 * {@code /dev/zero}, a socket), perhaps through a symbolic link. Refused before the file is
 * opened: a FIFO would block the open and a device would map as endless zeros.
 */
public final class NotARegularFileException extends RingException {
    private static final long serialVersionUID = 1L;

    /**
     * @param what what it is, e.g. {@code a character device, through a symbolic link to /dev/zero}
     */
    public NotARegularFileException(String path, String what) {
        super("not-a-regular-file", FileMessages.notARegularFile(RingDescriptor.KIND, path, what));
    }
}
