package dev.sympathy.ring;

/** A payload longer than the ring accepts (capacity / 8), or negative. */
public final class MessageTooLongException extends RingException {
    private static final long serialVersionUID = 1L;

    public MessageTooLongException(long length, int maxMessageLength) {
        super("message-too-long", "message of " + length + " bytes does not fit: this ring takes payloads of 0.."
                + maxMessageLength + " bytes (capacity / 8); use a larger ring or split the message");
    }
}
