package dev.sympathy.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.ring.RingFile;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * Attach ordering: a consumer looks at the producer while it attaches. The attach stores the
 * pid (compare-and-swap), then the heartbeat (release); the look loads the heartbeat (acquire)
 * before the pid (SYNC POINT producer-heartbeat). Loaded the other way round, a pid of 0 from
 * before the attach could meet the heartbeat stored after it: "detached" (pid 0, heartbeat
 * set), and a consumer started before its producer gave up with nothing received.
 */
@JCStressTest
@Description("FFM ring: a producer that is attaching is never seen as detached")
@Outcome(id = "NEVER_ATTACHED", expect = ACCEPTABLE, desc = "looked before the attach")
@Outcome(id = "ALIVE", expect = ACCEPTABLE, desc = "looked after the pid was stored")
@Outcome(expect = FORBIDDEN, desc = "an attaching producer read as detached or dead")
@State
public class AttachSeenByPeerTest {
    private final RingFile ring = RingFile.inMemory(256);

    @Actor
    public void attach() {
        ring.claimProducer();
    }

    @Actor
    public void look(L_Result r) {
        r.r1 = ring.producerState(5_000);
    }
}
