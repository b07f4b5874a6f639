package dev.sympathy.ring;

/** The ring file has a layout version this code does not know. */
public final class UnsupportedVersionException extends RingException {
    private static final long serialVersionUID = 1L;

    private final int version;

    public UnsupportedVersionException(String path, int version) {
        super("unsupported-version", path + ": ring layout version " + version + " is not supported (this build reads version "
                + RingDescriptor.LAYOUT_VERSION + "); recreate the file with this build");
        this.version = version;
    }

    /** The version found in the file. */
    public int version() {
        return version;
    }
}
