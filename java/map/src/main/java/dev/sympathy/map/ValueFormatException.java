package dev.sympathy.map;

/** The values are not in the format the caller decodes (kind {@code value-format}). */
public final class ValueFormatException extends MapException {
    private static final long serialVersionUID = 1L;

    public ValueFormatException(int found, int expected) {
        super("value-format", "the map's values are in format " + found + " (" + MapDescriptor.formatName(found) + "), not " + expected + " (" + MapDescriptor.formatName(expected) + "); open a map built for this use");
    }
}
