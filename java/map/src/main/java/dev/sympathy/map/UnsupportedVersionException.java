package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** The layout version is not one this code reads (kind {@code unsupported-version}). */
public final class UnsupportedVersionException extends MapException {
    private static final long serialVersionUID = 1L;

    public UnsupportedVersionException(String path, int found) {
        super("unsupported-version", FileMessages.unsupportedVersion(MapDescriptor.KIND, path, found));
    }
}
