package dev.sympathy.bridge;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a receiver has written into its ring, kept in a small mapped file beside the ring
 * ({@code RING.bridge}) so that a receiver killed at any instruction and restarted knows exactly
 * where the stream stands: nothing written twice, nothing skipped.
 *
 * <pre>
 *  0        8          16       24          32              40           48
 *  +--------+----------+--------+-----------+---------------+------------+
 *  | magic  | ring id  | source | confirmed | pending-record | pending-to |
 *  +--------+----------+--------+-----------+---------------+------------+
 *   magic          "SYMBRG01"
 *   ring id        the local ring's creation time (a recreated ring starts a new state)
 *   source         the source ring being received (0: none yet)
 *   confirmed      source position written up to ({@link BridgeFrames#NOTHING_CONFIRMED}: none)
 *   pending-record local ring position of the record being written, stored after its claim
 *   pending-to     the source position it ends at, stored after pending-record
 * </pre>
 *
 * <p>A write goes: claim the record in the ring, store pending-record then pending-to, copy,
 * commit, store confirmed. A successor finds pending-to ahead of confirmed and looks at the
 * ring: a committed record at pending-record (its producer's claim was finished) means the
 * write happened, so confirmed moves to pending-to; a claim left unfinished (the ring's producer
 * turns it into padding when it takes over) means it did not. The file survives the process,
 * not the host: it is not synced to disk (nor is the ring).
 */
final class ReceiverState implements AutoCloseable {
    private static final long MAGIC = 0x3130_4752_424D_5953L; // "SYMBRG01" little-endian
    private static final long MAGIC_OFFSET = 0;
    private static final long RING_ID_OFFSET = 8;
    private static final long SOURCE_OFFSET = 16;
    private static final long CONFIRMED_OFFSET = 24;
    private static final long PENDING_RECORD_OFFSET = 32;
    private static final long PENDING_TO_OFFSET = 40;
    private static final int LENGTH = 64;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;

    private final Arena arena;
    private final MemorySegment state;

    private ReceiverState(Arena arena, MemorySegment state) {
        this.arena = arena;
        this.state = state;
    }

    /** The state file of {@code ring}: {@code RING.bridge}. */
    static Path pathFor(Path ring) {
        return ring.resolveSibling(ring.getFileName() + ".bridge");
    }

    /**
     * Opens (or creates) the state file; a file of another ring, or none, starts empty.
     *
     * @throws BridgeException if the file exists but is not a receiver's state
     */
    static ReceiverState open(Path path, long ringId) throws IOException {
        boolean existed = Files.exists(path);
        if (existed && Files.size(path) != LENGTH) {
            throw new BridgeException("bad-state-file", path + " is not a bridge receiver's state file (" + Files.size(path)
                    + " bytes, not " + LENGTH + "): move it away, or give the receiver another ring");
        }
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MemorySegment state = channel.map(FileChannel.MapMode.READ_WRITE, 0, LENGTH, arena);
            ReceiverState s = new ReceiverState(arena, state);
            long magic = state.get(LONG, MAGIC_OFFSET);
            if (existed && magic != MAGIC && magic != 0) {
                arena.close();
                throw new BridgeException("bad-state-file", path + " is not a bridge receiver's state file (bad magic):"
                        + " move it away, or give the receiver another ring");
            }
            if (magic != MAGIC || state.get(LONG, RING_ID_OFFSET) != ringId) {
                s.reset(ringId, 0);
            }
            return s;
        } catch (IOException | RuntimeException e) {
            if (arena.scope().isAlive()) {
                arena.close();
            }
            throw e;
        }
    }

    /** Starts over: no source, nothing confirmed (a new ring, or a new source ring). */
    void reset(long ringId, long source) {
        state.set(LONG, PENDING_TO_OFFSET, BridgeFrames.NOTHING_CONFIRMED);
        state.set(LONG, PENDING_RECORD_OFFSET, -1L);
        state.set(LONG, CONFIRMED_OFFSET, BridgeFrames.NOTHING_CONFIRMED);
        state.set(LONG, SOURCE_OFFSET, source);
        state.set(LONG, RING_ID_OFFSET, ringId);
        VarHandle.releaseFence(); // the fields before the magic that makes them valid
        state.set(LONG, MAGIC_OFFSET, MAGIC);
    }

    long source() {
        return state.get(LONG, SOURCE_OFFSET);
    }

    long confirmed() {
        return state.get(LONG, CONFIRMED_OFFSET);
    }

    /** The write whose outcome a predecessor may not have recorded: its ring position, or -1. */
    long pendingRecord() {
        return state.get(LONG, PENDING_TO_OFFSET) > confirmed() ? state.get(LONG, PENDING_RECORD_OFFSET) : -1;
    }

    long pendingTo() {
        return state.get(LONG, PENDING_TO_OFFSET);
    }

    /** Before the copy: the record at {@code recordPosition} will end the source at {@code to}. */
    void pending(long recordPosition, long to) {
        state.set(LONG, PENDING_RECORD_OFFSET, recordPosition);
        VarHandle.releaseFence(); // pending-record before pending-to: a half-stored pair reads as nothing pending
        state.set(LONG, PENDING_TO_OFFSET, to);
    }

    /** After the commit: the source is written up to {@code to}. */
    void confirm(long to) {
        VarHandle.releaseFence();
        state.set(LONG, CONFIRMED_OFFSET, to);
    }

    @Override
    public void close() {
        arena.close();
    }
}
