package dev.sympathy.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A copying {@code write} racing a {@code read} of the FFM ring: the consumer's acquire load of
 * the record length pairs with the producer's release store (SYNC POINT record-length), so it
 * sees no message or the whole message. r1: messages read; r2: the grade (3 = both words right).
 */
@JCStressTest
@Description("FFM ring: RingProducer.write racing RingConsumer.read; never a torn message")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "not published yet: nothing read")
@Outcome(id = "1, 3", expect = ACCEPTABLE, desc = "the whole message")
@Outcome(expect = FORBIDDEN, desc = "a torn message: the length was visible before the payload")
@State
public class WriteReadTest {
    private final RingProducer producer;
    private final RingConsumer consumer;
    private final Messages.Grader grader = new Messages.Grader();

    public WriteReadTest() {
        RingFile ring = RingFile.inMemory(128);
        producer = ring.producer();
        consumer = ring.consumer();
    }

    @Actor
    public void produce() {
        producer.write(Messages.TYPE, Messages.MESSAGE, 0, Messages.MESSAGE.length);
    }

    @Actor
    public void consume(II_Result r) {
        r.r1 = consumer.read(grader, 1);
        r.r2 = grader.grade;
    }
}
