package dev.sympathy.jmh.serialization;

import dev.sympathy.messages.SbeMessages;
import dev.sympathy.messages.sbe.BooleanType;
import dev.sympathy.messages.sbe.MessageHeaderDecoder;
import dev.sympathy.messages.sbe.MessageHeaderEncoder;
import dev.sympathy.messages.sbe.OrderDecoder;
import dev.sympathy.messages.sbe.OrderEncoder;
import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code sbe}: the order as the SBE message {@code Order} of schema/sympathy-messages.xml, through
 * the flyweights the SBE tool generated at build time (java/messages) over an Agrona
 * {@link UnsafeBuffer} of direct memory: the 8-byte message header, then the 184 bytes of
 * {@link OrderLayout} (the schema puts the fields at the shared layout's offsets). A read first
 * checks the message as the Rust side does ({@link SbeMessages#checkOrder}: header, block length,
 * {@code special}), then reads it through the generated decoder. Rust's twin is the {@code sbe}
 * variant of {@code sympathy_lab::serialization}.
 */
final class SbeCodec implements OrderCodec {
    /** Bytes of one encoded order: header and block. */
    static final int SIZE = SbeMessages.ORDER_LENGTH;

    /**
     * The JVM flag the serialization experiment's forks run with: Agrona's buffers skip their
     * per-access bounds checks, so the generated code checks a message's extent once, as Rust's
     * does (see {@link SerializationExperiment}).
     */
    static final String NO_PER_ACCESS_BOUNDS_CHECKS = "-Dagrona.disable.bounds.checks=true";

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(BATCH * SIZE));
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderEncoder encoder = new OrderEncoder();
    private final OrderDecoder decoder = new OrderDecoder();

    @Override
    public String variant() {
        return "sbe";
    }

    @Override
    public void writeBatch(Order[] orders, int n) {
        OrderCodec.checkBatch(n);
        final UnsafeBuffer buffer = this.buffer;
        final OrderEncoder encoder = this.encoder;
        for (int i = 0; i < n; i++) {
            final Order order = orders[i];
            final int at = i * SIZE;
            encoder.wrapAndApplyHeader(buffer, at, headerEncoder)
                    .sourceId(order.sourceId())
                    .orderCode(order.orderCode())
                    .priority(order.priority())
                    .special(order.special() ? BooleanType.T : BooleanType.F);
            // The 7 bytes after special hold no field: zeroed, as every codec of the layout writes them.
            buffer.setMemory(at + SbeMessages.HEADER_LENGTH + OrderLayout.SPECIAL_OFFSET + 1, 7, (byte) 0);
            SbeMessages.putPrices(encoder, order.prices());
            SbeMessages.putQuantities(encoder, order.quantities());
        }
    }

    @Override
    public void readBatch(Order[] out, int n) {
        OrderCodec.checkBatch(n);
        final UnsafeBuffer buffer = this.buffer;
        final OrderDecoder decoder = this.decoder;
        for (int i = 0; i < n; i++) {
            final int at = i * SIZE;
            SbeMessages.checkOrder(buffer, at, SIZE);
            decoder.wrapAndApplyHeader(buffer, at, headerDecoder);
            out[i] = new Order(decoder.sourceId(), decoder.special() == BooleanType.T, decoder.orderCode(),
                    decoder.priority(), SbeMessages.prices(decoder), SbeMessages.quantities(decoder));
        }
    }

    /** A copy of slot {@code slot}'s bytes, header included (tests compare them with the other codecs'). */
    byte[] copyOfSlot(int slot) {
        final byte[] out = new byte[SIZE];
        buffer.getBytes(slot * SIZE, out);
        return out;
    }

    @Override
    public int encodedBytes() {
        return SIZE;
    }
}
