package dev.sympathy.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receiver's state file across a receiver that dies mid-write: a write committed to the
 * ring but not yet recorded is settled as written; a claim never committed is settled as not
 * written (the ring's next producer turns it into padding). A receiver that "dies" here detaches
 * without finishing (a kill leaves the same bytes; a dead pid is taken over like a released one).
 */
class ReceiverStateTest {
    @TempDir
    Path dir;

    @Test
    void shouldSettleACommittedButUnrecordedWriteAsWritten() throws IOException {
        Path ringPath = dir.resolve("b.ring");
        try (RingFile ring = RingFile.create(ringPath, 4096);
                ReceiverState state = ReceiverState.open(ReceiverState.pathFor(ringPath), ring.creationTimeMs())) {
            state.reset(ring.creationTimeMs(), 42);
            state.confirm(100);
            try (RingProducer dying = ring.producer()) {
                long index = dying.tryClaim(1, 8);
                state.pending(dying.position() - 16, 164);
                dying.commit(index);
                // killed here: confirmed still says 100
            }
            assertEquals(100, state.confirmed());
            try (RingProducer successor = ring.producer()) {
                assertTrue(BridgeReceiver.settle(state, successor));
            }
            assertEquals(164, state.confirmed());
            assertEquals(42, state.source());
        }
    }

    @Test
    void shouldSettleAnUnfinishedClaimAsNotWritten() throws IOException {
        Path ringPath = dir.resolve("b.ring");
        try (RingFile ring = RingFile.create(ringPath, 4096);
                ReceiverState state = ReceiverState.open(ReceiverState.pathFor(ringPath), ring.creationTimeMs())) {
            state.reset(ring.creationTimeMs(), 42);
            state.confirm(100);
            try (RingProducer dying = ring.producer()) {
                dying.tryClaim(1, 8);
                state.pending(dying.position() - 16, 164);
                // killed before the commit
            }
            try (RingProducer successor = ring.producer()) {
                assertFalse(BridgeReceiver.settle(state, successor));
            }
            assertEquals(100, state.confirmed());
        }
    }

    @Test
    void shouldKeepItsPositionAcrossReopeningAndStartOverForAnotherRing() throws IOException {
        Path ringPath = dir.resolve("b.ring");
        Path statePath = ReceiverState.pathFor(ringPath);
        assertEquals(dir.resolve("b.ring.bridge"), statePath);
        try (ReceiverState state = ReceiverState.open(statePath, 7)) {
            assertEquals(BridgeFrames.NOTHING_CONFIRMED, state.confirmed());
            state.reset(7, 42);
            state.confirm(640);
        }
        try (ReceiverState state = ReceiverState.open(statePath, 7)) {
            assertEquals(640, state.confirmed());
            assertEquals(42, state.source());
        }
        try (ReceiverState state = ReceiverState.open(statePath, 8)) { // the ring was recreated
            assertEquals(BridgeFrames.NOTHING_CONFIRMED, state.confirmed());
            assertEquals(0, state.source());
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotAState() throws IOException {
        Path wrongSize = dir.resolve("x.bridge");
        Files.write(wrongSize, new byte[10]);
        BridgeException e = assertThrows(BridgeException.class, () -> ReceiverState.open(wrongSize, 1));
        assertEquals("bad-state-file", e.kind());
        Path wrongMagic = dir.resolve("y.bridge");
        byte[] bytes = new byte[64];
        bytes[0] = 'X';
        Files.write(wrongMagic, bytes);
        e = assertThrows(BridgeException.class, () -> ReceiverState.open(wrongMagic, 1));
        assertTrue(e.getMessage().contains("bad magic"), e.getMessage());
    }
}
