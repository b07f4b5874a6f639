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
 * A zero-copy claim filled in place and committed, racing a {@code read}: the claim's negative
 * length stops the consumer until {@code commit} stores the positive length with release, so
 * the consumer sees nothing or the whole message, never the claim in progress. r1: messages
 * read; r2: the grade (3 = both words right).
 */
@JCStressTest
@Description("FFM ring: tryClaim, fill in place, commit racing RingConsumer.read; never a torn message")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "not committed yet: nothing read")
@Outcome(id = "1, 3", expect = ACCEPTABLE, desc = "the whole message")
@Outcome(expect = FORBIDDEN, desc = "a torn message, or the claim delivered before its commit")
@State
public class ClaimCommitReadTest {
    private final RingProducer producer;
    private final RingConsumer consumer;
    private final Messages.Grader grader = new Messages.Grader();

    public ClaimCommitReadTest() {
        RingFile ring = RingFile.inMemory(128);
        producer = ring.producer();
        consumer = ring.consumer();
    }

    @Actor
    public void produce() {
        long index = producer.tryClaim(Messages.TYPE, 16);
        producer.buffer().set(Messages.LONG, index, Messages.FIRST);
        producer.buffer().set(Messages.LONG, index + 8, Messages.SECOND);
        producer.commit(index);
    }

    @Actor
    public void consume(II_Result r) {
        r.r1 = consumer.read(grader, 1);
        r.r2 = grader.grade;
    }
}
