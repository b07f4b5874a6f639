package dev.sympathy.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.ring.ManyToOneConsumer;
import dev.sympathy.ring.ManyToOneProducer;
import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Two many-to-one producers claiming at once (compare-and-swap of the tail), each filling its
 * claim in place and committing it; the second producer's thread then reads as the consumer,
 * racing the first producer's claim: it sees none, one or both records (none when the first
 * claim comes first and is not committed yet: the read stops at it), and once everything
 * settled each record has been read exactly once, whole. Two actors, so that it runs on two
 * CPUs. r1: records read during the race; r2, r3: records of the first and second producer
 * read in all; r4: 1 when every record read was whole.
 */
@JCStressTest
@Description("FFM many-to-one ring: two producers' concurrent claims and a read; no record lost, duplicated or torn")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "the first claim came first, not committed when read")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "the read took one record")
@Outcome(id = "2, 1, 1, 1", expect = ACCEPTABLE, desc = "the read took both records")
@Outcome(expect = FORBIDDEN, desc = "a record lost, read twice, or torn")
@State
public class ManyToOneClaimsTest {
    private final ManyToOneProducer first;
    private final ManyToOneProducer second;
    private final ManyToOneConsumer consumer;
    private final Tally tally = new Tally();

    /** Counts the records of each producer (their type) and whether every one was whole. */
    private static final class Tally implements MessageHandler {
        int ofFirst;
        int ofSecond;
        boolean whole = true;

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            int grade = Messages.grade(Messages.TYPE, buffer, offset, length);
            whole &= grade == 3 && (typeId == 1 || typeId == 2);
            if (typeId == 1) {
                ofFirst++;
            } else if (typeId == 2) {
                ofSecond++;
            }
        }
    }

    public ManyToOneClaimsTest() {
        RingFile ring = RingFile.inMemory(128, RingKind.MANY_TO_ONE);
        first = ring.manyToOneProducer();
        second = ring.manyToOneProducer();
        consumer = ring.manyToOneConsumer();
    }

    private static void claimFillCommit(ManyToOneProducer producer, int typeId) {
        long index = producer.tryClaim(typeId, 16);
        producer.buffer().set(Messages.LONG, index, Messages.FIRST);
        producer.buffer().set(Messages.LONG, index + 8, Messages.SECOND);
        producer.commit(index);
    }

    @Actor
    public void produceFirst() {
        claimFillCommit(first, 1);
    }

    @Actor
    public void produceSecondThenConsume(IIII_Result r) {
        claimFillCommit(second, 2);
        r.r1 = consumer.read(tally, 10);
    }

    @Arbiter
    public void settle(IIII_Result r) {
        // Everything is committed now: what the race left is read here (two reads: the area's end).
        consumer.read(tally, 10);
        consumer.read(tally, 10);
        r.r2 = tally.ofFirst;
        r.r3 = tally.ofSecond;
        r.r4 = tally.whole ? 1 : 0;
    }
}
