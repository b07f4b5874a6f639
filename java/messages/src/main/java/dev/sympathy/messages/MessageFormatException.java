package dev.sympathy.messages;

import java.io.Serial;

/**
 * Why a message could not be encoded, or bytes could not be decoded as one: the Java twin of the
 * Rust crate's {@code MessageError}, with the same {@link #kind()} for the same bytes
 * ({@code truncated}, {@code wrong-schema}, {@code wrong-template}, {@code bad-block-length},
 * {@code bad-enum}, {@code bad-symbol}, {@code too-long}, {@code bad-utf8},
 * {@code buffer-too-small}). {@code schema/hostile/cases.txt} holds the cases both languages
 * answer alike.
 *
 * <pre>{@code
 * try {
 *     SbeMessages.decodePriceUpdate(buffer, 0, length);
 * } catch (MessageFormatException e) {
 *     log(e.kind() + ": " + e.getMessage());
 * }
 * }</pre>
 */
public final class MessageFormatException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String kind;

    MessageFormatException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    /** The language-neutral name of the error (Rust's {@code MessageError::kind}). */
    public String kind() {
        return kind;
    }

    static MessageFormatException bufferTooSmall(int needed, int length) {
        return new MessageFormatException("buffer-too-small", "buffer of " + length
                + " bytes is too small: the message needs " + needed + "; give it at least " + needed + " bytes");
    }

    static MessageFormatException truncated(String part, long needed, int length) {
        return new MessageFormatException("truncated", "message truncated: the " + part + " needs " + needed
                + " bytes, the message has " + length);
    }

    static MessageFormatException wrongSchema(int found) {
        return new MessageFormatException("wrong-schema", "schema id " + found + " is not sympathy's ("
                + SbeMessages.SCHEMA_ID + "): not one of its messages");
    }

    static MessageFormatException wrongTemplate(int found, int expected, String name) {
        return new MessageFormatException("wrong-template", "template id " + found + " is not the " + name + "'s ("
                + expected + ")");
    }

    static MessageFormatException badBlockLength(String part, int found, int min) {
        return new MessageFormatException("bad-block-length", "the " + part + " block is " + found
                + " bytes, shorter than the schema's " + min);
    }

    static MessageFormatException badEnum(String field, int value) {
        return new MessageFormatException("bad-enum", field + " is " + value + ", not one of the schema's values");
    }

    static MessageFormatException badSymbol(int index, int value) {
        return new MessageFormatException("bad-symbol", String.format(
                "the symbol is not printable ASCII followed by NUL padding: byte %d is 0x%02x", index, value));
    }

    static MessageFormatException tooLong(String part, long length, long max) {
        return new MessageFormatException("too-long", "the " + part + " has " + length
                + " entries or bytes, more than the schema's " + max);
    }

    static MessageFormatException badUtf8() {
        return new MessageFormatException("bad-utf8", "the venue is not valid UTF-8");
    }
}
