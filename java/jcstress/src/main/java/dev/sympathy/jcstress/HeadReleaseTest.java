package dev.sympathy.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Head ordering: the consumer reads a message in place while the producer wants its space.
 * A 256-byte ring holds a 24-byte message A at index 0, then filler up to a tail of 240. The
 * producer's next 12-byte message wraps to index 0, over A's payload, which is possible only
 * once the consumer has released the head past A. The consumer releases it (with release, in a
 * {@code finally}) after its handler returned, and the producer reloads it with acquire (SYNC
 * POINT head), so the producer can never overwrite A while the handler still reads it.
 * r1: 1 when the handler read A whole, 2 when torn; r2: 1 when the producer's write fit.
 */
@JCStressTest
@Description("FFM ring: the producer reuses a message's space only after the consumer released the head")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "ring still full for the producer: A read whole")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the producer wrote after the head release: A read whole")
@Outcome(expect = FORBIDDEN, desc = "A torn: the producer overwrote it while the consumer read it")
@State
public class HeadReleaseTest {
    private static final long A = 0xAAAA_AAAA_AAAA_AAAAL;
    private static final byte[] MESSAGE_A = Messages.bytes(A, A, A);
    private static final byte[] FILLER = Messages.bytes(0xBBL, 0xBBL, 0xBBL);
    private static final byte[] MESSAGE_C = new byte[12];

    static {
        java.util.Arrays.fill(MESSAGE_C, (byte) 0xCC);
    }

    private final RingProducer producer;
    private final RingConsumer consumer;
    private final Reader reader = new Reader();

    public HeadReleaseTest() {
        RingFile ring = RingFile.inMemory(256);
        producer = ring.producer();
        consumer = ring.consumer();
        producer.write(1, MESSAGE_A, 0, MESSAGE_A.length); // 32 bytes at 0
        for (int i = 0; i < 6; i++) {
            producer.write(1, FILLER, 0, FILLER.length); // 6 x 32 bytes: tail 224
        }
        producer.write(1, FILLER, 0, 8); // 16 bytes: tail 240, 16 bytes to the end
    }

    /** Reads A's three words one by one: a concurrent overwrite would show in one of them. */
    private static final class Reader implements MessageHandler {
        int verdict;

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            boolean whole = length == 24;
            for (int w = 0; w < 3 && whole; w++) {
                whole = buffer.get(Messages.LONG, offset + 8L * w) == A;
            }
            verdict = whole ? 1 : 2;
        }
    }

    @Actor
    public void consume(II_Result r) {
        consumer.read(reader, 1);
        r.r1 = reader.verdict;
    }

    @Actor
    public void produce(II_Result r) {
        r.r2 = producer.write(1, MESSAGE_C, 0, MESSAGE_C.length) ? 1 : 0;
    }
}
