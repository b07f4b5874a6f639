package dev.sympathy.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
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
 * Tail ordering: the FFM producer stores the trailer's tail (with release) when it claims room,
 * as Agrona does, before it publishes the record. A consumer that sees the record must therefore
 * see the tail past it (a producer taking over after a crash relies on it: records below the
 * tail are its predecessor's). The tail may run ahead of the record, which is why readers find
 * records by their length, never by the tail. r1: messages read, then r2: 1 when the tail
 * (loaded after the read) covers the message.
 */
@JCStressTest
@Description("FFM ring: the tail is stored before the record is published")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "nothing claimed yet")
@Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "tail ahead of the record (claimed, not yet published)")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "record and tail")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "a published record beyond the tail")
@State
public class TailBeforeRecordTest {
    private final RingFile ring = RingFile.inMemory(128);
    private final RingProducer producer = ring.producer();
    private final RingConsumer consumer = ring.consumer();
    private final Messages.Grader grader = new Messages.Grader();

    @Actor
    public void produce() {
        producer.write(Messages.TYPE, Messages.MESSAGE, 0, Messages.MESSAGE.length);
    }

    @Actor
    public void consume(II_Result r) {
        r.r1 = consumer.read(grader, 1);
        r.r2 = ring.tailPosition() >= 24 ? 1 : 0;
    }
}
