package dev.sympathy.messages;

import java.io.Serializable;
import java.util.List;

/**
 * The seed's price update (the schema's {@code PriceUpdate}, template 2): the embedded
 * instrument, the book's levels (a repeating group) and the venue (a variable-length UTF-8
 * string). {@link SbeMessages} encodes and decodes it; the byte layout is in docs/messaging.md.
 *
 * <pre>{@code
 * PriceUpdate update = new PriceUpdate(7, new Instrument(42, "AAPL"), 101.25, 300, Side.BID,
 *         List.of(new Level(101.0, 500, 3)), "XNAS");
 * }</pre>
 *
 * @param sequence the sequence number (the schema's uint64, as a long's bits)
 * @param levels the levels, in order (copied into an unmodifiable list)
 */
public record PriceUpdate(long sequence, Instrument instrument, double price, int quantity, Side side,
        List<Level> levels, String venue) implements Serializable {
    /** @throws NullPointerException for a null instrument, side, level list or venue */
    public PriceUpdate {
        java.util.Objects.requireNonNull(instrument, "instrument");
        java.util.Objects.requireNonNull(side, "side");
        java.util.Objects.requireNonNull(venue, "venue");
        levels = List.copyOf(levels);
    }
}
