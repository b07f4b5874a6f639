package dev.sympathy.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.ring.PeerWatch;
import dev.sympathy.ring.RingFile;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * Detach ordering on a reused ring: a consumer looks at a producer that attaches and detaches,
 * after an earlier producer's detach (its record a second old). The detach stores a heartbeat,
 * the same time as {@code detached_ms} (release), then gives the pid back (compare-and-swap);
 * the look loads the heartbeat, the pid, then {@code detached_ms} (SYNC POINT detached). Loaded
 * before the pid, {@code detached_ms} could be the earlier detach's while the pid is already this
 * detach's 0: pid 0 with a heartbeat newer than the detach record reads as a foreign (Agrona-only)
 * producer, alive with pid 0.
 */
@JCStressTest
@Description("FFM ring: a producer that detaches is never seen as a foreign peer")
@Outcome(id = "DETACHED pid 0", expect = ACCEPTABLE, desc = "looked before the attach or after the detach")
@Outcome(id = "ALIVE pid set", expect = ACCEPTABLE, desc = "looked while it was attached")
@Outcome(expect = FORBIDDEN, desc = "a detaching producer read as a foreign peer, or as stale or dead")
@State
public class DetachSeenByPeerTest {
    private final RingFile ring = RingFile.inMemory(256);
    private final PeerWatch watch;

    public DetachSeenByPeerTest() {
        ring.claimProducer();
        ring.releaseProducer();
        // The earlier detach was a second ago: this actor's heartbeats are newer than its record.
        var at = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
        long old = System.currentTimeMillis() - 1_000;
        ring.segment().set(at, dev.sympathy.ring.RingDescriptor.PRODUCER_HEARTBEAT_OFFSET, old);
        ring.segment().set(at, dev.sympathy.ring.RingDescriptor.PRODUCER_DETACHED_OFFSET, old);
        watch = ring.watchProducer();
    }

    @Actor
    public void attachAndDetach() {
        ring.claimProducer();
        ring.releaseProducer();
    }

    @Actor
    public void look(L_Result r) {
        var state = watch.look(5_000);
        r.r1 = state + (watch.pid() == 0 ? " pid 0" : " pid set");
    }
}
