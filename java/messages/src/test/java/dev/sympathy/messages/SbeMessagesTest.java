package dev.sympathy.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Seeded random round trips through the checked encoders and decoders, and what they refuse. */
class SbeMessagesTest {
    private final SbeMessages sbe = new SbeMessages();

    static final String SYMBOL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .-";
    static final String[] VENUES = {"", "XNAS", "Börse", "東京", "a venue of some length"};

    static PriceUpdate randomUpdate(SplittableRandom random) {
        StringBuilder symbol = new StringBuilder();
        for (int i = random.nextInt(9); i > 0; i--) {
            symbol.append(SYMBOL_CHARS.charAt(random.nextInt(SYMBOL_CHARS.length())));
        }
        List<Level> levels = new ArrayList<>();
        for (int i = random.nextInt(6); i > 0; i--) {
            levels.add(new Level(random.nextDouble() * 1e4, random.nextInt(), random.nextInt()));
        }
        return new PriceUpdate(random.nextLong(), new Instrument(random.nextLong(), symbol.toString()),
                random.nextDouble() * 1e4, random.nextInt(), random.nextBoolean() ? Side.BID : Side.ASK, levels,
                VENUES[random.nextInt(VENUES.length)]);
    }

    @Test
    void randomPriceUpdatesRoundTripAtAnyOffset() {
        SplittableRandom random = new SplittableRandom(18);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        for (int i = 0; i < 2000; i++) {
            PriceUpdate update = randomUpdate(random);
            int offset = random.nextInt(64);
            int length = sbe.encodePriceUpdate(update, buffer, offset, buffer.capacity() - offset);
            assertEquals(SbeMessages.priceUpdateLength(update.levels().size(),
                    update.venue().getBytes(StandardCharsets.UTF_8).length), length);
            assertEquals(length, SbeMessages.checkPriceUpdate(buffer, offset, length));
            assertEquals(update, sbe.decodePriceUpdate(buffer, offset, length));
        }
    }

    @Test
    void randomOrdersRoundTrip() {
        SplittableRandom random = new SplittableRandom(19);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[SbeMessages.ORDER_LENGTH]);
        for (int i = 0; i < 1000; i++) {
            double[] prices = random.doubles(10).toArray();
            long[] quantities = random.longs(10).toArray();
            Order order = new Order(random.nextLong(), random.nextBoolean(), random.nextInt(), random.nextInt(), prices,
                    quantities);
            assertEquals(192, sbe.encodeOrder(order, buffer, 0, buffer.capacity()));
            assertEquals(order, sbe.decodeOrder(buffer, 0, 192));
        }
    }

    /**
     * Every accessor of the order, encoder and decoder, stays inside the message's 192 bytes from
     * its offset: the buffer ends where the message does (Agrona's bounds checks, on in tests, throw
     * past it) and the bytes before the offset keep their sentinel. This is what lets the
     * serialization experiment run the generated order code with the per-access checks off and one
     * check of the message's extent.
     */
    @Test
    void everyOrderAccessStaysWithinItsMessage() {
        final int offset = 40;
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + SbeMessages.ORDER_LENGTH]);
        buffer.setMemory(0, buffer.capacity(), (byte) 0x5A);
        SplittableRandom random = new SplittableRandom(20);
        for (int i = 0; i < 100; i++) {
            Order order = new Order(random.nextLong(), random.nextBoolean(), random.nextInt(), random.nextInt(),
                    random.doubles(10).toArray(), random.longs(10).toArray());
            assertEquals(SbeMessages.ORDER_LENGTH, sbe.encodeOrder(order, buffer, offset, SbeMessages.ORDER_LENGTH));
            assertEquals(order, sbe.decodeOrder(buffer, offset, SbeMessages.ORDER_LENGTH));
            for (int b = 0; b < offset; b++) {
                assertEquals((byte) 0x5A, buffer.getByte(b), "byte " + b + " before the message");
            }
        }
    }

    @Test
    void whatDoesNotFitIsRefusedBeforeAnythingIsWritten() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        PriceUpdate update = GoldenValues.priceUpdate();
        assertEquals("buffer-too-small",
                assertThrows(MessageFormatException.class, () -> sbe.encodePriceUpdate(update, buffer, 0, 107)).kind());
        assertEquals(0, buffer.getByte(0), "nothing written");
        PriceUpdate longVenue = new PriceUpdate(1, new Instrument(1, "A"), 1, 1, Side.BID, List.of(), "x".repeat(257));
        assertEquals("too-long", assertThrows(MessageFormatException.class,
                () -> sbe.encodePriceUpdate(longVenue, buffer, 0, 1024)).kind());
        assertEquals("buffer-too-small", assertThrows(MessageFormatException.class,
                () -> sbe.encodeOrder(Order.seed(), buffer, 0, 191)).kind());
        assertEquals("too-long", assertThrows(MessageFormatException.class, () -> new Instrument(1, "TOO-LONG1")).kind());
        assertEquals("bad-symbol", assertThrows(MessageFormatException.class, () -> new Instrument(1, "A\tB")).kind());
    }
}
