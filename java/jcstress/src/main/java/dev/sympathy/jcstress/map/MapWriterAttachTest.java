package dev.sympathy.jcstress.map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.map.AlreadyAttachedException;
import dev.sympathy.map.MapFile;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two writers attaching at once (the compare-and-swap of the writer word, SYNC POINT writer):
 * exactly one wins; the other is refused. r1, r2: 1 attached, 0 refused.
 */
@JCStressTest
@Description("map: two MapFile.writer() at once; exactly one writer")
@Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "one writer")
@Outcome(expect = FORBIDDEN, desc = "two writers, or none")
@State
public class MapWriterAttachTest {
    private final MapFile map = Values.map();

    private int attach() {
        try {
            map.writer(); // never closed: the word stays claimed for the other actor
            return 1;
        } catch (AlreadyAttachedException e) {
            return 0;
        }
    }

    @Actor
    public void first(II_Result r) {
        r.r1 = attach();
    }

    @Actor
    public void second(II_Result r) {
        r.r2 = attach();
    }
}
