package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/** The ring file has a layout version this code does not know. */
public final class UnsupportedVersionException extends RingException {
    private static final long serialVersionUID = 1L;

    private final int version;

    public UnsupportedVersionException(String path, int version) {
        super("unsupported-version", FileMessages.unsupportedVersion(RingDescriptor.KIND, path, version));
        this.version = version;
    }

    /** The version found in the file. */
    public int version() {
        return version;
    }
}
