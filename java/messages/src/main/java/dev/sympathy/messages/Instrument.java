package dev.sympathy.messages;

import java.io.Serializable;

/**
 * A tradable instrument (e.g. a stock), embedded in a price update (the schema's composite
 * {@code Instrument}).
 *
 * @param id the instrument's id
 * @param symbol its ticker: at most {@value #SYMBOL_LENGTH} printable ASCII characters (0x20..0x7E),
 *     encoded NUL-padded to {@value #SYMBOL_LENGTH} bytes
 */
public record Instrument(long id, String symbol) implements Serializable {
    /** Bytes of an encoded symbol. */
    public static final int SYMBOL_LENGTH = 8;

    /** @throws MessageFormatException ({@code too-long}, {@code bad-symbol}) for a symbol that cannot be encoded */
    public Instrument {
        if (symbol.length() > SYMBOL_LENGTH) {
            throw MessageFormatException.tooLong("symbol", symbol.length(), SYMBOL_LENGTH);
        }
        for (int i = 0; i < symbol.length(); i++) {
            char c = symbol.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                throw MessageFormatException.badSymbol(i, c);
            }
        }
    }
}
