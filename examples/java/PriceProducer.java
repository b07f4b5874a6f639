import dev.sympathy.messages.Instrument;
import dev.sympathy.messages.Level;
import dev.sympathy.messages.PriceUpdate;
import dev.sympathy.messages.SbeMessages;
import dev.sympathy.messages.Side;
import dev.sympathy.messages.sbe.PriceUpdateEncoder;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends COUNT SBE price updates over a ring file to a consumer in another process
 * (examples/rust/src/bin/price_consumer.rs). Each update is encoded in place into the record the
 * ring hands out (a claim), then published: no copy. Run with the JDK's source launcher, as
 * PriceConsumer.java.
 */
public class PriceProducer {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long count = Long.parseLong(args[1]);
        SbeMessages sbe = new SbeMessages();
        try (RingFile ring = RingFile.create(path, 64 * 1024); // the consumer opens the file
                RingProducer producer = ring.producer()) {
            MemorySegment records = producer.buffer();
            UnsafeBuffer memory = new UnsafeBuffer(records.address(), (int) records.byteSize());
            for (long k = 0; k < count; k++) {
                double price = 100.0 + (k % 100) * 0.25;
                int quantity = 10 + (int) (k % 90);
                PriceUpdate update = new PriceUpdate(k, new Instrument(1, "AAPL"), price, quantity,
                        k % 2 == 0 ? Side.BID : Side.ASK, List.of(new Level(price - 0.25, quantity * 2, 3)), "XNAS");
                int length = SbeMessages.priceUpdateLength(1, 4);
                long index; // the record's type is the SBE template id
                while ((index = producer.tryClaim(PriceUpdateEncoder.TEMPLATE_ID, length)) < 0) {
                    LockSupport.parkNanos(50_000); // full: back pressure
                }
                sbe.encodePriceUpdate(update, memory, (int) index, length); // straight into the ring
                producer.commit(index);
            }
        }
        System.out.println("sent " + count + " price updates to " + path);
    }
}
