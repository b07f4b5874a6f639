package dev.sympathy.messages;

/** Which side of the book a price update is for (the schema's {@code Side}: Bid = 0, Ask = 1). */
public enum Side {
    /** The buy side (0). */
    BID,
    /** The sell side (1). */
    ASK;

    /** The byte the schema encodes it as. */
    public int code() {
        return ordinal();
    }

    /** The side encoded as {@code code}; {@link MessageFormatException} ({@code bad-enum}) for another byte. */
    public static Side fromCode(int code) {
        return switch (code) {
            case 0 -> BID;
            case 1 -> ASK;
            default -> throw MessageFormatException.badEnum("side", code);
        };
    }
}
