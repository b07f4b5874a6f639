package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;
import java.io.IOException;

/** The operating system refused an operation on the ring file for a reason other than permissions. */
public final class RingIoException extends RingException {
    private static final long serialVersionUID = 1L;

    /**
     * @param operation what was attempted, e.g. {@code "open the ring file"}
     */
    public RingIoException(String path, String operation, IOException cause) {
        super("io", FileMessages.io(path, operation, cause));
        initCause(cause);
    }
}
