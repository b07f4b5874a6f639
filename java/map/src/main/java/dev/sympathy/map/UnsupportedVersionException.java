package dev.sympathy.map;

/** The layout version is not one this code reads (kind {@code unsupported-version}). */
public final class UnsupportedVersionException extends MapException {
    private static final long serialVersionUID = 1L;

    public UnsupportedVersionException(String path, int found) {
        super("unsupported-version", path + ": map layout version " + Integer.toUnsignedString(found) + " is not supported (this build reads version " + MapDescriptor.LAYOUT_VERSION + "); use a matching sympathy build or rebuild the map");
    }
}
