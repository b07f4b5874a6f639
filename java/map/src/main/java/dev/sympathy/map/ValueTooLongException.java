package dev.sympathy.map;

/** The value is longer than the map accepts (kind {@code value-too-long}). */
public final class ValueTooLongException extends MapException {
    private static final long serialVersionUID = 1L;

    public ValueTooLongException(long length, int max) {
        super("value-too-long", "value of " + length + " bytes exceeds this map's maximum of " + max + " bytes (max_value_length, set at create); create a map with a larger --max-value-length");
    }
}
