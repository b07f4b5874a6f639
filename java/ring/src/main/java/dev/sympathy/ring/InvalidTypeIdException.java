package dev.sympathy.ring;

/** A message type id below 1 (0 is reserved, -1 is padding). */
public final class InvalidTypeIdException extends RingException {
    private static final long serialVersionUID = 1L;

    public InvalidTypeIdException(int typeId) {
        super("invalid-type-id", "message type id " + typeId + " is invalid: type ids must be >= 1 (-1 marks padding)");
    }
}
