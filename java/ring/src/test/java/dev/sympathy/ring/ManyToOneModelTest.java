package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.junit.jupiter.api.Test;

/**
 * Seeded model-based test of the many-to-one ring: random writes, claims committed or aborted
 * in any order, finishes of finished claims, reads of random limits and unblocks, from several
 * producer objects, against a simple model (the records in flight by position, each pending,
 * published or padding, and Agrona's room rules), through many wrap-arounds. Every step is also
 * applied to Agrona's {@code ManyToOneRingBuffer} over a second ring, and the two ring regions
 * must be byte-identical after it. A failure names the seed and step; rerun one seed with
 * {@code -Dsympathy.seed=N}.
 */
class ManyToOneModelTest {
    private static final int SEEDS = Integer.getInteger("sympathy.seeds", 120);
    private static final int STEPS = 1_200;
    private static final int[] CAPACITIES = {64, 128, 256, 1024};
    private static final int PRODUCERS = 4;

    /** A record in flight in the model. */
    private static final class Rec {
        final int aligned;
        final int type;
        final byte[] payload;
        /** 0 pending (claimed), 1 published, 2 padding (wrap, abort or unblock). */
        int state;

        Rec(int aligned, int type, byte[] payload, int state) {
            this.aligned = aligned;
            this.type = type;
            this.payload = payload;
            this.state = state;
        }
    }

    /** A claim handed out: ours and Agrona's index, its record's position, the payload meant for it. */
    record Claim(long index, int agronaIndex, long position, byte[] payload) {}

    private final TreeMap<Long, Rec> records = new TreeMap<>();
    private long head;
    private long tail;
    private int capacity;

    @Test
    void shouldMatchTheModelAndAgronaByteForByte() {
        Long only = Long.getLong("sympathy.seed");
        long first = only != null ? only : 1;
        long last = only != null ? only : SEEDS;
        for (long seed = first; seed <= last; seed++) {
            try {
                runSeed(seed);
            } catch (Throwable t) {
                throw new AssertionError("model test failed with seed " + seed + " (rerun: mvn -f java/pom.xml -pl ring"
                        + " test -Dtest=ManyToOneModelTest -Dsympathy.seed=" + seed + ")", t);
            }
        }
    }

    /** The model's claim: the payload's position, or -1 when full (perhaps after claiming the padding). */
    private long claim(int type, byte[] payload) {
        int required = RingDescriptor.align(payload.length + RingDescriptor.RECORD_HEADER_LENGTH, 8);
        if (required > capacity - (tail - head)) {
            return -1;
        }
        int tailIndex = (int) tail & (capacity - 1);
        int toEnd = capacity - tailIndex;
        if (required > toEnd) {
            records.put(tail, new Rec(toEnd, RingDescriptor.PADDING_MSG_TYPE_ID, null, 2));
            tail += toEnd;
            if (required > ((int) head & (capacity - 1))) {
                return -1;
            }
        }
        long position = tail;
        records.put(position, new Rec(required, type, payload, 0));
        tail += required;
        return position;
    }

    /** The model's read: published messages from the head to at most the end of the area. */
    private List<String> read(int limit) {
        List<String> out = new ArrayList<>();
        int contiguous = capacity - ((int) head & (capacity - 1));
        int bytes = 0;
        while (bytes < contiguous && out.size() < limit) {
            Rec rec = records.get(head + bytes);
            if (rec == null || rec.state == 0) {
                break;
            }
            bytes += rec.aligned;
            if (rec.state == 1) {
                out.add(rec.type + ":" + java.util.HexFormat.of().formatHex(rec.payload));
            }
        }
        records.headMap(head + bytes).clear();
        head += bytes;
        return out;
    }

    private void runSeed(long seed) {
        records.clear();
        head = 0;
        tail = 0;
        SplittableRandom random = new SplittableRandom(seed);
        capacity = CAPACITIES[random.nextInt(CAPACITIES.length)];
        RingFile ours = RingFile.inMemory(capacity, RingKind.MANY_TO_ONE);
        RingFile theirs = RingFile.inMemory(capacity, RingKind.MANY_TO_ONE);
        ManyToOneRingBuffer agrona = new ManyToOneRingBuffer(Streams.agronaRegion(theirs));
        ManyToOneProducer[] producers = new ManyToOneProducer[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            producers[p] = ours.manyToOneProducer();
        }
        int max = ours.maxMessageLength();
        List<Claim> pending = new ArrayList<>();
        List<Claim> finished = new ArrayList<>();
        try (ManyToOneConsumer consumer = ours.manyToOneConsumer()) {
            agrona.consumerHeartbeatTime(ours.consumerHeartbeatMs());
            for (int step = 0; step < STEPS; step++) {
                String where = "step " + step + " (capacity " + capacity + ")";
                int p = random.nextInt(PRODUCERS);
                int type = p + 1;
                ManyToOneProducer producer = producers[p];
                int op = random.nextInt(100);
                if (op < 30) {
                    byte[] payload = randomBytes(random, random.nextInt(max + 1));
                    long position = claim(type, payload);
                    boolean expected = position >= 0;
                    if (expected) {
                        records.get(position).state = 1; // a write publishes at once
                    }
                    boolean wrote = (op & 1) == 0 ? producer.write(type, payload, 0, payload.length)
                            : producer.write(type, MemorySegment.ofArray(payload), 0, payload.length);
                    assertEquals(expected, wrote, where + ": write");
                    assertEquals(expected, agrona.write(type, new UnsafeBuffer(payload), 0, payload.length), where);
                } else if (op < 50) {
                    byte[] payload = randomBytes(random, random.nextInt(max + 1));
                    long position = claim(type, payload);
                    long index = producer.tryClaim(type, payload.length);
                    int agronaIndex = agrona.tryClaim(type, payload.length);
                    assertEquals(position < 0 ? ManyToOneProducer.INSUFFICIENT_CAPACITY
                            : (position & (capacity - 1)) + RingDescriptor.RECORD_HEADER_LENGTH, index, where + ": claim");
                    assertEquals((int) index, agronaIndex, where);
                    if (index >= 0) {
                        MemorySegment.copy(payload, 0, producer.buffer(), ValueLayout.JAVA_BYTE, index, payload.length);
                        agrona.buffer().putBytes(agronaIndex, payload);
                        pending.add(new Claim(index, agronaIndex, position, payload));
                    }
                } else if (op < 70 && !pending.isEmpty()) {
                    Claim claim = pending.remove(random.nextInt(pending.size()));
                    boolean commit = random.nextInt(3) != 0;
                    records.get(claim.position()).state = commit ? 1 : 2;
                    if (commit) {
                        producer.commit(claim.index());
                        agrona.commit(claim.agronaIndex());
                    } else {
                        producer.abort(claim.index());
                        agrona.abort(claim.agronaIndex());
                    }
                    finished.add(claim);
                } else if (op < 73 && !finished.isEmpty()) {
                    // Finishing a finished claim again is refused while its record is in the ring.
                    Claim claim = finished.get(random.nextInt(finished.size()));
                    if (claim.position() >= head) {
                        assertThrows(IllegalStateException.class, () -> producer.commit(claim.index()), where);
                        assertThrows(IllegalStateException.class, () -> producer.abort(claim.index()), where);
                    }
                } else if (op < 75) {
                    // Unblock: the claim at the head, if any, becomes padding (its producer "died").
                    Rec atHead = head == tail ? null : records.get(head);
                    boolean expected = atHead != null && atHead.state == 0;
                    if (expected) {
                        atHead.state = 2;
                        pending.removeIf(c -> c.position() == head);
                    }
                    assertEquals(expected, consumer.unblock(), where + ": unblock");
                    assertEquals(expected, agrona.unblock(), where);
                } else {
                    int limit = random.nextInt(4) == 0 ? 1000 : 1 + random.nextInt(6);
                    List<String> expected = read(limit);
                    List<String> got = new ArrayList<>();
                    List<String> agronaGot = new ArrayList<>();
                    consumer.read((t, buffer, offset, length) -> got.add(t + ":" + java.util.HexFormat.of()
                            .formatHex(buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE))), limit);
                    agrona.read((t, buffer, index, length) -> {
                        byte[] bytes = new byte[length];
                        buffer.getBytes(index, bytes);
                        agronaGot.add(t + ":" + java.util.HexFormat.of().formatHex(bytes));
                    }, limit);
                    assertEquals(expected, got, where + ": read");
                    assertEquals(expected, agronaGot, where + ": Agrona's read");
                    finished.removeIf(c -> c.position() < head);
                }
                assertEquals(tail, ours.tailPosition(), where + ": tail");
                assertEquals(head, consumer.position(), where + ": head");
                assertArrayEquals(theirs.ringRegion().toArray(ValueLayout.JAVA_BYTE),
                        ours.ringRegion().toArray(ValueLayout.JAVA_BYTE), where + ": bytes differ from Agrona's");
            }
        }
    }

    private static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        return bytes;
    }
}
