package dev.sympathy.messages;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.messages.sbe.PriceUpdateDecoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Golden files, as SBE's own baseline test does across languages: {@code schema/golden/*.java.sbe}
 * are this encoder's bytes, which the Rust tests (crates/messages/tests/golden.rs) decode field by
 * field; {@code *.rust.sbe} are Rust's, decoded here. Both encoders must write the same bytes.
 * After a deliberate change, rewrite the Java files with {@code -Dsympathy.writeGolden=true}.
 */
class GoldenTest {
    private final SbeMessages sbe = new SbeMessages();

    private static Path golden(String name) {
        return GoldenValues.schemaDir().resolve("golden").resolve(name);
    }

    private static void checkOrWrite(String name, byte[] ours) throws IOException {
        if (Boolean.getBoolean("sympathy.writeGolden")) {
            Files.write(golden(name), ours);
            return;
        }
        assertArrayEquals(Files.readAllBytes(golden(name)), ours,
                name + ": this encoder's bytes changed; rewrite the file only if that is deliberate");
    }

    @Test
    void javaEncodesTheGoldenOrderAsCommittedAndAsRustDoes() throws IOException {
        byte[] bytes = new byte[SbeMessages.ORDER_LENGTH];
        Arrays.fill(bytes, (byte) 0xA5);
        assertEquals(192, sbe.encodeOrder(GoldenValues.order(), new UnsafeBuffer(bytes), 0, bytes.length));
        checkOrWrite("order.java.sbe", bytes);
        assertArrayEquals(Files.readAllBytes(golden("order.rust.sbe")), bytes, "Rust and Java encode the order alike");
    }

    @Test
    void javaDecodesRustsOrderFieldByField() throws IOException {
        byte[] bytes = Files.readAllBytes(golden("order.rust.sbe"));
        Order order = sbe.decodeOrder(new UnsafeBuffer(bytes), 0, bytes.length);
        assertEquals(1010, order.sourceId());
        assertTrue(order.special());
        assertEquals(777, order.orderCode());
        assertEquals(99, order.priority());
        assertArrayEquals(new double[] {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}, order.prices());
        assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, order.quantities());
        assertEquals(GoldenValues.order(), order);
    }

    @Test
    void javaEncodesTheGoldenPriceUpdateAsCommittedAndAsRustDoes() throws IOException {
        PriceUpdate update = GoldenValues.priceUpdate();
        byte[] bytes = new byte[SbeMessages.priceUpdateLength(3, "Börse".getBytes(java.nio.charset.StandardCharsets.UTF_8).length)];
        Arrays.fill(bytes, (byte) 0xA5);
        assertEquals(bytes.length, sbe.encodePriceUpdate(update, new UnsafeBuffer(bytes), 0, bytes.length));
        checkOrWrite("price-update.java.sbe", bytes);
        assertArrayEquals(Files.readAllBytes(golden("price-update.rust.sbe")), bytes,
                "Rust and Java encode the price update alike");
    }

    @Test
    void javaDecodesRustsPriceUpdateFieldByField() throws IOException {
        byte[] bytes = Files.readAllBytes(golden("price-update.rust.sbe"));
        UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        assertEquals(bytes.length, SbeMessages.checkPriceUpdate(buffer, 0, bytes.length));
        PriceUpdateDecoder decoder = sbe.wrapPriceUpdate(buffer, 0, bytes.length);
        assertEquals(123_456_789_012L, decoder.sequence());
        assertEquals(-42, decoder.instrument().instrumentId());
        assertEquals("SYMPATHY", decoder.instrument().symbol());
        assertEquals(1234.5625, decoder.price());
        assertEquals(-17, decoder.quantity());
        assertEquals(dev.sympathy.messages.sbe.Side.Ask, decoder.side());
        PriceUpdateDecoder.LevelsDecoder levels = decoder.levels();
        assertEquals(3, levels.count());
        levels.next();
        levels.next();
        assertEquals(1234.25, levels.price());
        assertEquals(250, levels.quantity());
        assertEquals(7, levels.orders());
        levels.next();
        assertEquals("Börse", decoder.venue());
        assertEquals(GoldenValues.priceUpdate(), sbe.decodePriceUpdate(buffer, 0, bytes.length));
    }
}
