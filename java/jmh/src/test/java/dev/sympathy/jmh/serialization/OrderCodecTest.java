package dev.sympathy.jmh.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Round trips of every serialization codec on seeded random orders, and the fixed layout. */
class OrderCodecTest {
    private static void assertSameOrder(Order expected, Order actual, String where) {
        assertNotSame(expected, actual, where + ": the codec must decode a new object");
        assertEquals(expected.sourceId(), actual.sourceId(), where + " sourceId");
        assertEquals(expected.special(), actual.special(), where + " special");
        assertEquals(expected.orderCode(), actual.orderCode(), where + " orderCode");
        assertEquals(expected.priority(), actual.priority(), where + " priority");
        for (int j = 0; j < OrderLayout.ARRAY_LENGTH; j++) {
            assertEquals(Double.doubleToLongBits(expected.price(j)), Double.doubleToLongBits(actual.price(j)),
                    where + " prices[" + j + "]");
            assertEquals(expected.quantity(j), actual.quantity(j), where + " quantities[" + j + "]");
        }
        assertEquals(expected, actual, where);
    }

    @ParameterizedTest
    @ValueSource(strings = {"java-serialization", "byte-buffer", "unsafe", "ffm", "ring-claim", "sbe"})
    void shouldRoundTripSeededRandomOrdersInBatchesOfEverySize(String variant) {
        final SplittableRandom random = new SplittableRandom(variant.hashCode());
        try (OrderCodec codec = OrderCodecs.create(variant)) {
            assertEquals(variant, codec.variant());
            final Order[] orders = new Order[OrderCodec.BATCH];
            final Order[] decoded = new Order[OrderCodec.BATCH];
            // 40 batches of 192-byte ring records wrap the 128 KiB ring several times
            for (int batch = 0; batch < 40; batch++) {
                final int n = batch == 0 ? OrderCodec.BATCH : 1 + random.nextInt(OrderCodec.BATCH);
                for (int i = 0; i < n; i++) {
                    orders[i] = batch == 0 && i == 0 ? Order.seedItem() : Order.random(random);
                }
                codec.writeBatch(orders, n);
                codec.readBatch(decoded, n);
                for (int i = 0; i < n; i++) {
                    assertSameOrder(orders[i], decoded[i], variant + " batch " + batch + " order " + i);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"java-serialization", "byte-buffer", "unsafe", "ffm", "ring-claim", "sbe"})
    void shouldRejectABatchLargerThanItsRoom(String variant) {
        try (OrderCodec codec = OrderCodecs.create(variant)) {
            final Order[] orders = new Order[OrderCodec.BATCH + 1];
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> codec.writeBatch(orders, OrderCodec.BATCH + 1));
            assertEquals("a batch holds 0..256 orders, got 257", e.getMessage());
        }
    }

    @Test
    void shouldWriteTheSameDocumentedLittleEndianBytesInEveryBinaryCodec() {
        final SplittableRandom random = new SplittableRandom(184);
        final Order[] orders = new Order[OrderCodec.BATCH];
        for (int i = 0; i < orders.length; i++) {
            orders[i] = Order.random(random);
        }
        try (ByteBufferCodec byteBuffer = new ByteBufferCodec();
                UnsafeCodec unsafe = new UnsafeCodec();
                FfmCodec ffm = new FfmCodec();
                SbeCodec sbe = new SbeCodec()) {
            byteBuffer.writeBatch(orders, orders.length);
            unsafe.writeBatch(orders, orders.length);
            ffm.writeBatch(orders, orders.length);
            sbe.writeBatch(orders, orders.length);
            final byte[] header = {(byte) 184, 0, 1, 0, 77, 0, 0, 0}; // block length, template, schema, version
            for (int i = 0; i < orders.length; i++) {
                final byte[] expected = layout(orders[i]);
                assertArrayEquals(expected, byteBuffer.copyOfSlot(i), "byte-buffer slot " + i);
                assertArrayEquals(expected, unsafe.copyOfSlot(i), "unsafe slot " + i);
                assertArrayEquals(expected, ffm.copyOfSlot(i), "ffm slot " + i);
                final byte[] message = sbe.copyOfSlot(i);
                assertArrayEquals(header, java.util.Arrays.copyOfRange(message, 0, 8), "sbe header, slot " + i);
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(message, 8, 192), "sbe block, slot " + i);
            }
        }
    }

    /** The layout of docs/serialization.md, written out by hand. */
    private static byte[] layout(Order order) {
        final ByteBuffer b = ByteBuffer.allocate(184).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, order.sourceId());
        b.putInt(8, order.orderCode());
        b.putInt(12, order.priority());
        b.put(16, (byte) (order.special() ? 1 : 0)); // 17..23 stay zero
        for (int j = 0; j < 10; j++) {
            b.putLong(24 + 8 * j, Double.doubleToRawLongBits(order.price(j)));
            b.putLong(104 + 8 * j, order.quantity(j));
        }
        return b.array();
    }

    @Test
    void shouldRejectASpecialByteOtherThanZeroOrOne() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment segment = arena.allocate(OrderLayout.SIZE, 8);
            FfmCodec.encode(segment, 0, Order.seedItem());
            segment.set(ValueLayout.JAVA_BYTE, OrderLayout.SPECIAL_OFFSET, (byte) 2);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FfmCodec.decode(segment, 0));
            assertEquals("special byte must be 0 or 1, got 2", e.getMessage());
        }
    }

    @Test
    void shouldRejectARecordPastTheEndOfTheSegment() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment segment = arena.allocate(OrderLayout.SIZE, 8);
            assertThrows(IndexOutOfBoundsException.class, () -> FfmCodec.encode(segment, 8, Order.seedItem()));
            assertThrows(IndexOutOfBoundsException.class, () -> FfmCodec.decode(segment, 8));
        }
    }

    @Test
    void shouldRejectArraysOfAnotherLength() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Order(1, true, 2, 3, new double[9], new long[10]));
        assertEquals("prices must hold 10 elements, got 9", e.getMessage());
    }

    @Test
    void shouldReadABatchThatStartsWithTheRingsWrapAroundPadding() {
        // 682 records of 192 bytes leave 128 bytes at the end of the 128 KiB area: too few for
        // the next record, so the batch after them starts with padding at the consumer's head
        final SplittableRandom random = new SplittableRandom(682);
        final Order[] orders = new Order[OrderCodec.BATCH];
        final Order[] decoded = new Order[OrderCodec.BATCH];
        try (OrderCodec codec = OrderCodecs.create("ring-claim")) {
            for (int n : new int[] {256, 256, 170, 7, 256}) {
                for (int i = 0; i < n; i++) {
                    orders[i] = Order.random(random);
                }
                codec.writeBatch(orders, n);
                codec.readBatch(decoded, n);
                for (int i = 0; i < n; i++) {
                    assertSameOrder(orders[i], decoded[i], "batch of " + n + " order " + i);
                }
            }
        }
    }

    @Test
    void shouldRefuseToReadMoreRingRecordsThanWereWritten() {
        try (OrderCodec codec = OrderCodecs.create("ring-claim")) {
            codec.writeBatch(new Order[] {Order.seedItem()}, 1);
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> codec.readBatch(new Order[2], 2));
            assertEquals("ring-claim: the ring holds 1 of the 2 orders written", e.getMessage());
        }
    }

    @Test
    void shouldNameTheVariantsOnAnUnknownOne() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OrderCodecs.create("kryo"));
        assertEquals("serialization: unknown variant 'kryo' (expected java-serialization, byte-buffer, unsafe, ffm,"
                + " ring-claim, sbe)", e.getMessage());
    }
}
