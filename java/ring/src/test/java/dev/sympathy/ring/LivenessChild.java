package dev.sympathy.ring;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The peer process of {@link LivenessTest}: {@code PATH COUNT} opens the ring, writes messages
 * {@code 0 .. COUNT/2} (each an 8-byte little-endian index), waits for the file {@code PATH.go}
 * (heartbeating), writes the rest and detaches.
 */
public final class LivenessChild {
    private LivenessChild() {}

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long count = Long.parseLong(args[1]);
        Path go = Path.of(args[0] + ".go");
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(10)); RingProducer producer = ring.producer()) {
            byte[] message = new byte[8];
            for (long i = 0; i < count; i++) {
                if (i == count / 2) {
                    while (!Files.exists(go)) {
                        producer.heartbeat();
                        LockSupport.parkNanos(1_000_000);
                    }
                }
                for (int k = 0; k < 8; k++) {
                    message[k] = (byte) (i >>> (8 * k));
                }
                while (!producer.write(1, message, 0, 8)) {
                    producer.heartbeat();
                    LockSupport.parkNanos(100_000);
                }
            }
        }
    }
}
