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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A batch of two messages ({@code RingProducer.batch()}: the second record's header stored
 * plainly, the first's held back and released last) racing a {@code read}: the consumer's
 * acquire load of the first header pairs with the batch's publishing release (SYNC POINT
 * record-length), so it sees nothing or both whole messages, never one alone or a torn one.
 * r1: messages read; r2, r3: the grades of the first and second (3 = both words right).
 */
@JCStressTest
@Description("FFM ring: a two-message batch racing RingConsumer.read; all of the batch or nothing")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "not published yet: nothing read")
@Outcome(id = "2, 3, 3", expect = ACCEPTABLE, desc = "the whole batch")
@Outcome(expect = FORBIDDEN, desc = "part of the batch, or a torn message")
@State
public class BatchWriteReadTest {
    private final RingProducer producer;
    private final RingConsumer consumer;
    private final TwoGrades grader = new TwoGrades();

    public BatchWriteReadTest() {
        RingFile ring = RingFile.inMemory(256);
        producer = ring.producer();
        consumer = ring.consumer();
    }

    @Actor
    public void produce() {
        RingProducer.Batch batch = producer.batch();
        batch.write(Messages.TYPE, Messages.MESSAGE, 0, Messages.MESSAGE.length);
        batch.write(Messages.TYPE, Messages.MESSAGE, 0, Messages.MESSAGE.length);
        batch.finish();
    }

    @Actor
    public void consume(III_Result r) {
        r.r1 = consumer.read(grader, 2);
        r.r2 = grader.grades[0];
        r.r3 = grader.grades[1];
    }

    /** Grades up to two messages, in order. */
    static final class TwoGrades implements MessageHandler {
        final int[] grades = new int[2];
        private int seen;

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            grades[seen++] = Messages.grade(typeId, buffer, offset, length);
        }
    }
}
