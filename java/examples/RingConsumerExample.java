import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The consumer half of "Use the ring from your program" (docs/ring.md): reads COUNT messages from
 * a ring file (waiting for its producer to create it) and prints the first three and the last.
 * Run with the JDK's source launcher against the sympathy-ring jar and its one dependency:
 * {@code java --enable-native-access=ALL-UNNAMED
 * -cp java/ring/target/sympathy-ring-0.1.0.jar:java/mapped/target/sympathy-mapped-0.1.0.jar
 * java/examples/RingConsumerExample.java /tmp/demo.ring 1000}
 */
public class RingConsumerExample {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long count = Long.parseLong(args[1]);
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(30));
                RingConsumer consumer = ring.consumer()) {
            long[] received = {0};
            String[] last = {""};
            while (received[0] < count) {
                int n = consumer.read((type, buffer, offset, length) -> {
                    byte[] bytes = buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
                    last[0] = new String(bytes, StandardCharsets.UTF_8); // the payload is valid only during the call
                    if (received[0]++ < 3) {
                        System.out.println("type " + type + ": " + last[0]);
                    }
                }, 256);
                if (n == 0) {
                    LockSupport.parkNanos(50_000); // empty: let the producer run
                }
            }
            System.out.println("received " + count + " messages, the last: " + last[0]);
        }
    }
}
