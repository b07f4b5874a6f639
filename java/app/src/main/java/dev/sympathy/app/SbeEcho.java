package dev.sympathy.app;

import dev.sympathy.messages.MessageFormatException;
import dev.sympathy.messages.Order;
import dev.sympathy.messages.PriceUpdate;
import dev.sympathy.messages.SbeMessages;
import dev.sympathy.messages.sbe.OrderDecoder;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code sbe-echo}: the Java half of the cross-language round trip of random messages
 * (crates/messages/tests/java_round_trip.rs, a proptest): reads records {@code [u32 length LE]
 * [an SBE message]} from stdin until its end, decodes each into a value ({@link Order} or
 * {@link PriceUpdate}, by its template id) with {@link SbeMessages}, encodes that value again and
 * writes it back the same way to stdout. A record that does not decode ends it: exit status 1,
 * naming the record and the error's kind.
 */
final class SbeEcho {
    private SbeEcho() {}

    static void run(InputStream in, OutputStream out) throws IOException {
        DataInputStream records = new DataInputStream(in);
        OutputStream echoes = new BufferedOutputStream(out);
        SbeMessages sbe = new SbeMessages();
        UnsafeBuffer decoded = new UnsafeBuffer(new byte[0]);
        UnsafeBuffer encoded = new UnsafeBuffer(new byte[1 << 20]);
        byte[] length = new byte[4];
        for (long record = 0; ; record++) {
            try {
                records.readFully(length);
            } catch (EOFException end) {
                break;
            }
            byte[] message = new byte[ByteBuffer.wrap(length).order(ByteOrder.LITTLE_ENDIAN).getInt()];
            records.readFully(message);
            decoded.wrap(message);
            int template = message.length >= 4 ? decoded.getShort(2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF : -1;
            int written;
            try {
                if (template == OrderDecoder.TEMPLATE_ID) {
                    Order order = sbe.decodeOrder(decoded, 0, message.length);
                    written = sbe.encodeOrder(order, encoded, 0, encoded.capacity());
                } else {
                    PriceUpdate update = sbe.decodePriceUpdate(decoded, 0, message.length);
                    written = sbe.encodePriceUpdate(update, encoded, 0, encoded.capacity());
                }
            } catch (MessageFormatException e) {
                throw new IllegalStateException("sbe-echo: record " + record + " (template " + template + ") does not"
                        + " decode (" + e.kind() + "): " + e.getMessage(), e);
            }
            echoes.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(written).array());
            echoes.write(encoded.byteArray(), 0, written);
        }
        echoes.flush();
    }
}
