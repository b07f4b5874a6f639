package dev.sympathy.bridge;

import static dev.sympathy.bridge.BridgeFrames.*;

import dev.sympathy.ring.ControlledMessageHandler.Action;
import dev.sympathy.ring.ReadAheadHandler;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.FragmentHandler;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.time.Duration;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The sending end: reads its ring ahead of the head into an exclusive publication and gives
 * records back to the ring's producer only once the receiver confirms them. The unconfirmed
 * records are the resend window: the ring itself, so a sender killed at any point and restarted
 * loses nothing (it starts again at the head, the receiver drops what it already has). A record
 * the publication cannot take now (back pressure, no receiver) stays where it is: the read stops
 * there and the ring fills, which the producer feels as back pressure.
 *
 * <pre>{@code
 * try (BridgeSender sender = BridgeSender.open(settings)) {
 *     while (running) idle.idle(sender.doWork());
 * }
 * }</pre>
 */
public final class BridgeSender implements BridgeEnd {
    /** Records per read-ahead call. */
    private static final int READ_BATCH = 64;
    private static final long HEARTBEAT_EVERY_MS = 100;

    private final RingFile ring;
    private final RingConsumer consumer;
    private final BridgeNode node;
    /** Whether this end started {@link #node} (and turns and closes it) or shares another end's. */
    private final boolean ownsNode;
    private final ExclusivePublication publication;
    private final Subscription confirms;
    private final UnsafeBuffer ringBuffer;
    private final UnsafeBuffer headerBuffer = new UnsafeBuffer(new byte[DATA_HEADER_LENGTH]);
    private final BufferClaim claim = new BufferClaim();
    private final long source;
    private final ReadAheadHandler send = this::send;
    private final FragmentHandler onConfirm = (buffer, offset, length, header) -> onConfirm(buffer, offset, length);

    /** Where the next read ahead starts. */
    private long cursor;
    /** The end of the last message sent (the next frame's {@code from}). */
    private long lastEnd;
    /** The furthest position sent by this process: confirmations beyond it release only up to it. */
    private long highWater;
    private int obeyedRewind;
    private long lastBeatMs;

    private long sent;
    private long resent;
    private long rewinds;
    private long backPressured;
    private long confirmed = NOTHING_CONFIRMED;

    private BridgeSender(RingFile ring, RingConsumer consumer, BridgeNode node, boolean ownsNode,
            ExclusivePublication publication, Subscription confirms) {
        this.ring = ring;
        this.consumer = consumer;
        this.node = node;
        this.ownsNode = ownsNode;
        this.publication = publication;
        this.confirms = confirms;
        MemorySegment region = ring.ringRegion();
        this.ringBuffer = new UnsafeBuffer(region.address(), (int) region.byteSize());
        this.source = ring.creationTimeMs();
        this.cursor = consumer.position();
        this.lastEnd = cursor;
        this.highWater = cursor;
    }

    /**
     * Attaches as the consumer of the ring (a dead predecessor's slot is taken over), starts the
     * driver and the publication.
     *
     * @throws BridgeException if the ring's largest message does not fit the publication's
     */
    public static BridgeSender open(BridgeSettings settings) throws IOException {
        return open(settings, null);
    }

    /** As {@link #open(BridgeSettings)}, on {@code shared}'s driver and client when not null (a duplex end). */
    static BridgeSender open(BridgeSettings settings, BridgeNode shared) throws IOException {
        RingFile ring = RingFile.open(settings.ring, Duration.ofSeconds(10), RingKind.ONE_TO_ONE);
        RingConsumer consumer = null;
        BridgeNode node = shared;
        try {
            consumer = ring.consumer();
            if (node == null) {
                node = new BridgeNode(settings, "send");
            }
            ExclusivePublication publication = node.aeron().addExclusivePublication(settings.channel, settings.stream);
            int largest = ring.maxMessageLength() + DATA_HEADER_LENGTH;
            if (largest > publication.maxMessageLength()) {
                throw new BridgeException("message-too-long", settings.ring + " holds messages up to " + ring.maxMessageLength()
                        + " bytes; with the bridge's " + DATA_HEADER_LENGTH + "-byte header that is over the publication's"
                        + " largest message, " + publication.maxMessageLength() + " bytes (term length / 8): raise"
                        + " --term-length to at least " + Integer.highestOneBit(largest * 8 - 1) * 2);
            }
            Subscription confirms = node.aeron().addSubscription(settings.confirmChannel, settings.confirmStream);
            return new BridgeSender(ring, consumer, node, shared == null, publication, confirms);
        } catch (RuntimeException e) {
            if (node != null && shared == null) {
                node.close();
            }
            if (consumer != null) {
                consumer.close();
            }
            ring.close();
            throw e;
        }
    }

    @Override
    public int doWork() {
        int work = ownsNode ? node.invoke() : 0;
        work += confirms.poll(onConfirm, 16);
        if (publication.isConnected()) {
            long before = cursor;
            cursor = consumer.readAhead(cursor, send, READ_BATCH);
            work += cursor != before ? 1 : 0;
        }
        long now = System.currentTimeMillis();
        if (now - lastBeatMs >= HEARTBEAT_EVERY_MS) {
            lastBeatMs = now;
            consumer.heartbeat();
        }
        return work;
    }

    private Action send(long position, int typeId, MemorySegment buffer, long offset, int length) {
        long to = position + RingDescriptor.align(length + RingDescriptor.RECORD_HEADER_LENGTH,
                RingDescriptor.RECORD_ALIGNMENT);
        int frameLength = DATA_HEADER_LENGTH + length;
        long result;
        if (frameLength <= publication.maxPayloadLength()) {
            result = publication.tryClaim(frameLength, claim);
            if (result > 0) {
                UnsafeBuffer frame = (UnsafeBuffer) claim.buffer();
                int at = claim.offset();
                putHeader(frame, at, to, typeId);
                frame.putBytes(at + DATA_HEADER_LENGTH, ringBuffer, (int) offset, length);
                claim.commit();
            }
        } else {
            putHeader(headerBuffer, 0, to, typeId);
            result = publication.offer(headerBuffer, 0, DATA_HEADER_LENGTH, ringBuffer, (int) offset, length);
        }
        if (result < 0) {
            if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION) {
                backPressured++;
            }
            return Action.ABORT; // stays in the ring: sent when the publication takes it
        }
        if (to > highWater) {
            highWater = to;
            sent++;
        } else {
            resent++;
        }
        lastEnd = to;
        return Action.CONTINUE;
    }

    private void putHeader(UnsafeBuffer frame, int at, long to, int typeId) {
        frame.putLong(at + DATA_FROM_OFFSET, lastEnd, ByteOrder.LITTLE_ENDIAN);
        frame.putLong(at + DATA_TO_OFFSET, to, ByteOrder.LITTLE_ENDIAN);
        frame.putLong(at + DATA_SOURCE_OFFSET, source, ByteOrder.LITTLE_ENDIAN);
        frame.putInt(at + DATA_TYPE_OFFSET, typeId, ByteOrder.LITTLE_ENDIAN);
        frame.putInt(at + DATA_REWIND_OFFSET, obeyedRewind, ByteOrder.LITTLE_ENDIAN);
    }

    private void onConfirm(org.agrona.DirectBuffer buffer, int offset, int length) {
        if (length < CONFIRM_LENGTH) {
            return;
        }
        long position = buffer.getLong(offset + CONFIRM_POSITION_OFFSET, ByteOrder.LITTLE_ENDIAN);
        long confirmSource = buffer.getLong(offset + CONFIRM_SOURCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        int rewind = buffer.getInt(offset + CONFIRM_REWIND_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (confirmSource == source && position > consumer.position()) {
            // Only what this process has read is known to be a record boundary of this ring.
            consumer.releaseTo(Math.min(position, highWater));
            confirmed = Math.max(confirmed, Math.min(position, highWater));
        }
        if (rewind != obeyedRewind) {
            obeyedRewind = rewind;
            cursor = consumer.position();
            lastEnd = cursor;
            rewinds++;
        }
        if (cursor < consumer.position()) {
            cursor = consumer.position();
            lastEnd = cursor;
        }
    }

    @Override
    public String stats() {
        return "send: sent " + sent + " messages, resent " + resent + ", confirmed up to " + confirmed
                + " (ring head " + consumer.position() + "), rewinds " + rewinds + ", back-pressured " + backPressured
                + ", retransmits " + node.systemCounter(SystemCounterDescriptor.RETRANSMITS_SENT)
                + ", connected " + publication.isConnected();
    }

    @Override
    public void close() {
        if (ownsNode) {
            node.close();
        } else {
            publication.close();
            confirms.close();
        }
        consumer.close();
        ring.close();
    }
}
