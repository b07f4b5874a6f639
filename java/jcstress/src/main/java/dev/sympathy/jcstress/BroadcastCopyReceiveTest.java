package dev.sympathy.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.ring.BroadcastReceiver;
import dev.sympathy.ring.BroadcastTransmitter;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The copy receiver racing a transmitter that laps it: the receiver joined at record 0 of a
 * 64-byte broadcast ring; the transmitter sends records 1 to 8 (16 bytes each), overwriting
 * record 0 and those after it while the receiver may be copying one. Whatever it hands out is
 * a whole record as transmitted (its type, index and check word agree), never one overwritten
 * while copied. r1: records handed out (0 or 1); r2: 1 when it was whole (or none was handed
 * out); r3: 1 when the receiver counted a lap.
 */
@JCStressTest
@Description("FFM broadcast: the copy receiver against a transmitter lapping it; never a record overwritten while copied")
@Outcome(id = {"1, 1, 0", "1, 1, 1"}, expect = ACCEPTABLE, desc = "a whole record (lapped or not)")
@Outcome(id = {"0, 1, 1"}, expect = ACCEPTABLE, desc = "overwritten while copied: counted as a lap, nothing handed out")
@Outcome(expect = FORBIDDEN, desc = "a torn or overwritten record handed out, or nothing without a lap")
@State
public class BroadcastCopyReceiveTest {
    private static final int RECORDS = 8;
    private static final long CHECK = 0x5A5A_5A5A_0000_0000L;

    private final BroadcastTransmitter transmitter;
    private final BroadcastReceiver receiver;
    private final byte[] message = new byte[8];
    private int handedOut;
    private boolean whole = true;

    public BroadcastCopyReceiveTest() {
        RingFile ring = RingFile.inMemory(64, RingKind.BROADCAST);
        transmitter = ring.broadcastTransmitter();
        receiver = ring.broadcastReceiver(); // joins at 0
        send(0);
    }

    /** Record {@code i}: type {@code i + 1}, one word: {@code CHECK ^ (i * 0x0101_0101) ^ i << 40}. */
    private static long word(int i) {
        return CHECK ^ (i * 0x0101_0101L) ^ ((long) i << 40);
    }

    private void send(int i) {
        java.lang.foreign.MemorySegment.ofArray(message).set(Messages.LONG, 0, word(i));
        transmitter.transmit(i + 1, message, 0, 8);
    }

    @Actor
    public void transmit() {
        for (int i = 1; i <= RECORDS; i++) {
            send(i);
        }
    }

    @Actor
    public void receive(III_Result r) {
        r.r1 = receiver.receive((type, buffer, offset, length) -> {
            handedOut++;
            int i = type - 1;
            whole &= length == 8 && i >= 0 && i <= RECORDS && buffer.get(Messages.LONG, offset) == word(i);
        });
        r.r2 = whole ? 1 : 0;
        r.r3 = receiver.lappedCount() > 0 ? 1 : 0;
    }
}
