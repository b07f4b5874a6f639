package dev.sympathy.bridge;

import static dev.sympathy.bridge.BridgeFrames.*;

import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import dev.sympathy.ring.RingProducer;
import io.aeron.ControlledFragmentAssembler;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The receiving end: polls the data subscription (fragments reassembled) into its ring with a
 * claim, and confirms on the confirm stream the source position written so far. A frame is
 * written only when it continues exactly where the ring stands ({@code from == confirmed}); a
 * repeat is dropped; a gap (frames lost while a link was down) asks the sender to rewind. When
 * the ring is full the poll stops at that frame (Aeron keeps it), the subscription falls behind
 * and Aeron's flow control holds the sender back.
 */
public final class BridgeReceiver implements BridgeEnd {
    private static final int FRAGMENT_LIMIT = 64;
    private static final long CONFIRM_IDLE_EVERY_MS = 20;
    private static final long HEARTBEAT_EVERY_MS = 100;

    private final RingFile ring;
    private final RingProducer producer;
    private final ReceiverState state;
    private final BridgeNode node;
    /** Whether this end started {@link #node} (and turns and closes it) or shares another end's. */
    private final boolean ownsNode;
    private final Subscription data;
    private final ExclusivePublication confirms;
    private final UnsafeBuffer ringBuffer;
    private final UnsafeBuffer confirmFrame = new UnsafeBuffer(new byte[CONFIRM_LENGTH]);
    private final ControlledFragmentAssembler assembler;
    private final int maxMessageLength;

    /** The source position written up to, as in the state file; cached. */
    private long confirmed;
    private long source;
    private int rewind;
    private long sentConfirmed = Long.MIN_VALUE;
    private int sentRewind;
    private long sentAtMs;
    private long lastBeatMs;

    private long written;
    private long repeats;
    private long gaps;
    private long fullStops;
    private long recovered;

    private BridgeReceiver(RingFile ring, RingProducer producer, ReceiverState state, BridgeNode node,
            boolean ownsNode, Subscription data, ExclusivePublication confirms) {
        this.ring = ring;
        this.producer = producer;
        this.state = state;
        this.node = node;
        this.ownsNode = ownsNode;
        this.data = data;
        this.confirms = confirms;
        MemorySegment region = producer.buffer();
        this.ringBuffer = new UnsafeBuffer(region.address(), (int) region.byteSize());
        this.maxMessageLength = producer.maxMessageLength();
        this.assembler = new ControlledFragmentAssembler(this::onFrame);
        this.confirmed = state.confirmed();
        this.source = state.source();
        this.rewind = newRewind(0);
    }

    /**
     * Attaches as the producer of the ring (a dead predecessor's slot is taken over and its
     * unfinished claim turned into padding), settles a write the predecessor may have left
     * unrecorded, starts the driver, the subscription and the confirm publication.
     */
    public static BridgeReceiver open(BridgeSettings settings) throws IOException {
        return open(settings, null);
    }

    /** As {@link #open(BridgeSettings)}, on {@code shared}'s driver and client when not null (a duplex end). */
    static BridgeReceiver open(BridgeSettings settings, BridgeNode shared) throws IOException {
        RingFile ring = RingFile.open(settings.ring, Duration.ofSeconds(10), RingKind.ONE_TO_ONE);
        RingProducer producer = null;
        ReceiverState state = null;
        BridgeNode node = shared;
        try {
            producer = ring.producer();
            state = ReceiverState.open(ReceiverState.pathFor(settings.ring), ring.creationTimeMs());
            boolean recovered = settle(state, producer);
            if (node == null) {
                node = new BridgeNode(settings, "receive");
            }
            Subscription data = node.aeron().addSubscription(settings.channel, settings.stream);
            ExclusivePublication confirms = node.aeron().addExclusivePublication(settings.confirmChannel,
                    settings.confirmStream);
            BridgeReceiver receiver = new BridgeReceiver(ring, producer, state, node, shared == null, data, confirms);
            receiver.recovered = recovered ? 1 : 0;
            return receiver;
        } catch (IOException | RuntimeException e) {
            if (node != null && shared == null) {
                node.close();
            }
            if (state != null) {
                state.close();
            }
            if (producer != null) {
                producer.close();
            }
            ring.close();
            throw e;
        }
    }

    /**
     * A predecessor killed between claiming a record and recording that it was written: the
     * record committed at {@code pending-record} says it was (the ring's producer has already
     * turned an unfinished claim into padding). Returns whether the confirmed position moved.
     */
    static boolean settle(ReceiverState state, RingProducer producer) {
        long record = state.pendingRecord();
        if (record < 0 || record >= producer.position()) {
            return false;
        }
        MemorySegment buffer = producer.buffer();
        long header = buffer.get(ValueLayout.JAVA_LONG, record & (buffer.byteSize() - 1));
        int length = (int) header;
        int type = (int) (header >>> 32);
        if (length > 0 && type >= 1) {
            state.confirm(state.pendingTo());
            return true;
        }
        return false;
    }

    private static int newRewind(int previous) {
        int next = previous == 0 ? ThreadLocalRandom.current().nextInt() : previous + 1;
        return next == 0 ? 1 : next;
    }

    @Override
    public int doWork() {
        int work = ownsNode ? node.invoke() : 0;
        work += data.controlledPoll(assembler, FRAGMENT_LIMIT);
        long now = System.currentTimeMillis();
        if (confirmed != sentConfirmed || rewind != sentRewind || now - sentAtMs >= CONFIRM_IDLE_EVERY_MS) {
            sendConfirm(now);
        }
        if (now - lastBeatMs >= HEARTBEAT_EVERY_MS) {
            lastBeatMs = now;
            producer.heartbeat();
        }
        return work;
    }

    private void sendConfirm(long now) {
        confirmFrame.putLong(CONFIRM_POSITION_OFFSET, confirmed, ByteOrder.LITTLE_ENDIAN);
        confirmFrame.putLong(CONFIRM_SOURCE_OFFSET, source, ByteOrder.LITTLE_ENDIAN);
        confirmFrame.putInt(CONFIRM_REWIND_OFFSET, rewind, ByteOrder.LITTLE_ENDIAN);
        if (confirms.offer(confirmFrame, 0, CONFIRM_LENGTH) > 0) {
            sentConfirmed = confirmed;
            sentRewind = rewind;
            sentAtMs = now;
        }
    }

    private Action onFrame(DirectBuffer buffer, int offset, int length, io.aeron.logbuffer.Header header) {
        if (length < DATA_HEADER_LENGTH) {
            throw new BridgeException("bad-frame", "a data frame of " + length + " bytes arrived on stream "
                    + header.streamId() + " from session " + header.sessionId() + ": shorter than the bridge's "
                    + DATA_HEADER_LENGTH + "-byte header; is another publisher using this channel and stream?");
        }
        long from = buffer.getLong(offset + DATA_FROM_OFFSET, ByteOrder.LITTLE_ENDIAN);
        long to = buffer.getLong(offset + DATA_TO_OFFSET, ByteOrder.LITTLE_ENDIAN);
        long frameSource = buffer.getLong(offset + DATA_SOURCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        int type = buffer.getInt(offset + DATA_TYPE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        int obeyed = buffer.getInt(offset + DATA_REWIND_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (frameSource != source || confirmed == NOTHING_CONFIRMED) {
            // A source this receiver has nothing of: start with the sender's oldest unconfirmed
            // record, which is what it sends once it has obeyed this receiver's rewind.
            if (obeyed != rewind) {
                return ControlledFragmentHandler.Action.CONTINUE;
            }
            if (frameSource != source) {
                state.reset(ring.creationTimeMs(), frameSource);
                source = frameSource;
            }
        } else if (to <= confirmed) {
            repeats++;
            return ControlledFragmentHandler.Action.CONTINUE;
        } else if (from != confirmed) {
            if (obeyed == rewind) { // the sender has obeyed the last request and still skips: ask again
                rewind = newRewind(rewind);
                gaps++;
            }
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        int payload = length - DATA_HEADER_LENGTH;
        if (payload > maxMessageLength) {
            throw new BridgeException("message-too-long", "a message of " + payload + " bytes (type " + type
                    + ", source position " + from + ") is over this ring's largest, " + maxMessageLength
                    + " bytes: recreate " + ring.path() + " with a capacity of at least " + 8L * payload
                    + " bytes (nothing was lost: the sender keeps it until it is confirmed)");
        }
        long index = producer.tryClaim(type, payload);
        if (index < 0) {
            fullStops++;
            return ControlledFragmentHandler.Action.ABORT; // the ring is full: Aeron keeps the frame
        }
        long recordLength = RingDescriptor.align(payload + RingDescriptor.RECORD_HEADER_LENGTH,
                RingDescriptor.RECORD_ALIGNMENT);
        state.pending(producer.position() - recordLength, to);
        ringBuffer.putBytes((int) index, buffer, offset + DATA_HEADER_LENGTH, payload);
        producer.commit(index);
        state.confirm(to);
        confirmed = to;
        written++;
        return ControlledFragmentHandler.Action.CONTINUE;
    }

    @Override
    public String stats() {
        return "receive: wrote " + written + " messages, dropped " + repeats + " repeats, " + gaps
                + " gaps asked again, stopped " + fullStops + " times on a full ring, confirmed up to " + confirmed
                + ", NAKs sent " + node.systemCounter(SystemCounterDescriptor.NAK_MESSAGES_SENT)
                + (recovered > 0 ? ", settled the predecessor's last write" : "");
    }

    @Override
    public void close() {
        if (ownsNode) {
            node.close();
        } else {
            data.close();
            confirms.close();
        }
        state.close();
        producer.close();
        ring.close();
    }
}
