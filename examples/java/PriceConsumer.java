import dev.sympathy.messages.MessageFormatException;
import dev.sympathy.messages.SbeMessages;
import dev.sympathy.messages.sbe.PriceUpdateDecoder;
import dev.sympathy.ring.ControlledMessageHandler.Action;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Receives COUNT SBE price updates from a ring file that a producer in another process creates
 * (examples/rust/src/bin/price_producer.rs), each checked and decoded in place from the ring's
 * memory by the generated flyweight, and prints the first three and the last. A message that is
 * not a price update stops it with that message's number and what is wrong, left in the ring
 * unread (a controlled read that aborts before it), as the Rust consumer does. Run with the JDK's
 * source launcher (ci/sbe-examples shows the class path):
 * {@code java --enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
 * -cp <sympathy-ring, sympathy-messages, agrona jars> examples/java/PriceConsumer.java /tmp/prices.ring 1000}
 */
public class PriceConsumer {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long count = Long.parseLong(args[1]);
        SbeMessages sbe = new SbeMessages();
        UnsafeBuffer memory = new UnsafeBuffer(new byte[0]); // the ring's memory, wrapped at the first message
        long[] received = {0};
        String[] last = {""};
        MessageFormatException[] bad = {null};
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(30)); // waits for the producer
                RingConsumer consumer = ring.consumer()) {
            while (received[0] < count) {
                int n = consumer.controlledRead((type, buffer, offset, length) -> {
                    if (memory.addressOffset() != buffer.address()) {
                        memory.wrap(buffer.address(), (int) buffer.byteSize());
                    }
                    PriceUpdateDecoder update;
                    try {
                        update = sbe.wrapPriceUpdate(memory, (int) offset, length); // checked
                    } catch (MessageFormatException e) {
                        bad[0] = e;
                        return Action.ABORT; // not consumed: the head stays before it
                    }
                    last[0] = describe(update);
                    if (received[0]++ < 3) {
                        System.out.println(last[0]);
                    }
                    return Action.CONTINUE;
                }, 256);
                if (bad[0] != null) {
                    System.err.println("PriceConsumer: message " + (received[0] + 1) + " is not a price update ("
                            + bad[0].getMessage() + "); it is left in the ring, unread");
                    System.exit(1);
                }
                if (n == 0) {
                    LockSupport.parkNanos(50_000); // empty: let the producer run
                }
            }
        }
        System.out.println("received " + count + " price updates, the last: " + last[0]);
    }

    /** One line per update, the same as the Rust consumer prints. */
    static String describe(PriceUpdateDecoder u) {
        long sequence = u.sequence();
        String symbol = u.instrument().symbol();
        String side = u.sideRaw() == 0 ? "bid" : "ask";
        double price = u.price();
        int quantity = u.quantity();
        PriceUpdateDecoder.LevelsDecoder group = u.levels(); // read in order: the group, then the venue
        int levels = group.count();
        while (group.hasNext()) {
            group.next();
        }
        return String.format("#%d %s %s %.2f x %d (%d level%s) on %s", sequence, symbol, side, price, quantity, levels,
                levels == 1 ? "" : "s", u.venue());
    }
}
