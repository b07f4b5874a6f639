package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded model-based test: random writes, claims (committed or aborted), batch writes (through
 * {@link RingProducer#batch()}, {@link RingProducer#writeBatch(int, int, int, MessageFiller)} and
 * {@link RingProducer#writeBatch(int, MemorySegment[], int, int)}, each checked against the
 * same messages written one by one into Agrona), batch reads (small limits and whole-ring
 * ones) and single reads against an {@link ArrayDeque} model of the messages in flight, through many
 * wrap-arounds. Each step is also applied to Agrona's {@code OneToOneRingBuffer} over a second
 * buffer, and the two ring regions must be byte-identical after every step (same records, same
 * padding, same pre-zeroed headers, same trailer positions). A failure names the seed and step;
 * rerun one seed with {@code -Dsympathy.seed=N}.
 */
class RingModelTest {
    private static final int SEEDS = Integer.getInteger("sympathy.seeds", 150);
    private static final int STEPS = 1_500;
    private static final int[] CAPACITIES = {64, 128, 256, 1024, 4096};

    @TempDir
    Path dir;

    record Message(int type, byte[] payload) {}

    @Test
    void shouldMatchTheQueueModelAndAgronaByteForByte() throws Exception {
        Long only = Long.getLong("sympathy.seed");
        long first = only != null ? only : 1;
        long last = only != null ? only : SEEDS;
        for (long seed = first; seed <= last; seed++) {
            try {
                runSeed(seed);
            } catch (Throwable t) {
                throw new AssertionError("model test failed with seed " + seed
                        + " (rerun: mvn -f java/pom.xml -pl ring test -Dtest=RingModelTest -Dsympathy.seed=" + seed + ")", t);
            }
        }
    }

    private void runSeed(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int capacity = CAPACITIES[random.nextInt(CAPACITIES.length)];
        Path file = dir.resolve("model-" + seed + ".ring");
        try (RingFile ring = RingFile.create(file, capacity);
                RingProducer producer = ring.producer();
                RingConsumer consumer = ring.consumer();
                Arena arena = Arena.ofConfined()) {
            MemorySegment agronaMemory = arena.allocate(capacity + RingDescriptor.TRAILER_LENGTH, 64);
            OneToOneRingBuffer agrona = new OneToOneRingBuffer(
                    new UnsafeBuffer(agronaMemory.address(), (int) agronaMemory.byteSize()));
            ArrayDeque<Message> model = new ArrayDeque<>();
            int max = ring.maxMessageLength();
            for (int step = 0; step < STEPS; step++) {
                int op = random.nextInt(100);
                int type = 1 + random.nextInt(1000);
                int size = random.nextInt(8) == 0 ? max : random.nextInt(max + 1);
                byte[] payload = new byte[size];
                random.nextBytes(payload);
                boolean wasEmpty = ring.tailPosition() == ring.headPosition(); // aborted claims occupy room too
                if (op < 28) {
                    boolean written = producer.write(type, payload, 0, size);
                    boolean agronaWritten = agrona.write(type, new UnsafeBuffer(payload), 0, size);
                    assertEquals(agronaWritten, written, "write accepted differs from Agrona at step " + step);
                    if (written) {
                        model.add(new Message(type, payload));
                    } else {
                        assertTrue(!wasEmpty, "an empty ring refused a message of " + size + " bytes");
                    }
                } else if (op < 36) {
                    MemorySegment source = arena.allocate(Math.max(1, size));
                    MemorySegment.copy(payload, 0, source, ValueLayout.JAVA_BYTE, 0, size);
                    boolean written = producer.write(type, source, 0, size);
                    boolean agronaWritten = agrona.write(type, new UnsafeBuffer(payload), 0, size);
                    assertEquals(agronaWritten, written, "segment write accepted differs from Agrona at step " + step);
                    if (written) {
                        model.add(new Message(type, payload));
                    }
                } else if (op < 44) {
                    batchWrite(random, producer, agrona, model, max, step);
                } else if (op < 50) {
                    fillerBatch(random, producer, agrona, model, size, step);
                } else if (op < 53) {
                    segmentBatch(random, producer, agrona, model, max, arena, step);
                } else if (op < 60) {
                    boolean commit = random.nextInt(4) != 0;
                    long index = producer.tryClaim(type, size);
                    int agronaIndex = agrona.tryClaim(type, size);
                    assertEquals(agronaIndex < 0, index < 0, "claim accepted differs from Agrona at step " + step);
                    if (index >= 0) {
                        assertEquals(agronaIndex, index, "claim index differs from Agrona");
                        MemorySegment.copy(payload, 0, producer.buffer(), ValueLayout.JAVA_BYTE, index, size);
                        agrona.buffer().putBytes(agronaIndex, payload);
                        if (commit) {
                            producer.commit(index);
                            agrona.commit(agronaIndex);
                            model.add(new Message(type, payload));
                        } else {
                            producer.abort(index);
                            agrona.abort(agronaIndex);
                        }
                    }
                } else if (op < 90) {
                    int limit = random.nextInt(5) == 0 ? Integer.MAX_VALUE : 1 + random.nextInt(6);
                    List<Message> got = new ArrayList<>();
                    int n = consumer.read((t, buffer, offset, length) ->
                            got.add(new Message(t, buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE))), limit);
                    List<Message> agronaGot = new ArrayList<>();
                    int agronaN = agrona.read((t, buffer, offset, length) -> {
                        byte[] bytes = new byte[length];
                        buffer.getBytes(offset, bytes);
                        agronaGot.add(new Message(t, bytes));
                    }, limit);
                    assertEquals(agronaN, n, "read count differs from Agrona at step " + step);
                    assertEquals(n, got.size());
                    assertTrue(n <= limit, "read more than its limit");
                    for (int i = 0; i < n; i++) {
                        expect(model.poll(), got.get(i), step);
                        expect(got.get(i), agronaGot.get(i), step);
                    }
                } else {
                    List<Message> got = new ArrayList<>();
                    int n = consumer.readOne((t, buffer, offset, length) ->
                            got.add(new Message(t, buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE))));
                    agrona.read((t, buffer, offset, length) -> { }, 1);
                    assertTrue(n <= 1);
                    if (n == 1) {
                        expect(model.poll(), got.get(0), step);
                    }
                }
                agrona.consumerHeartbeatTime(ring.consumerHeartbeatMs()); // the one slot Agrona does not write here
                assertArrayEquals(agronaMemory.toArray(ValueLayout.JAVA_BYTE), ring.ringRegion().toArray(ValueLayout.JAVA_BYTE),
                        "ring region differs from Agrona's after step " + step + " (op " + op + ")");
            }
            // Drain: everything written arrives, in order, and nothing else.
            int empty = 0;
            while (empty < 2) { // a wrap's padding reads as empty once
                List<Message> got = new ArrayList<>();
                int n = consumer.read((t, buffer, offset, length) ->
                        got.add(new Message(t, buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE))), 100);
                empty = n == 0 ? empty + 1 : 0;
                for (Message m : got) {
                    expect(model.poll(), m, -1);
                }
            }
            assertTrue(model.isEmpty(), model.size() + " messages were written but never read");
            assertEquals(0, consumer.read((t, b, o, l) -> { }, 100), "read a message that was never written");
        }
        Files.deleteIfExists(file);
    }

    /** Up to 8 messages of random sizes through the producer's batch, then finished. */
    private static void batchWrite(SplittableRandom random, RingProducer producer, OneToOneRingBuffer agrona,
            ArrayDeque<Message> model, int max, int step) {
        RingProducer.Batch batch = producer.batch();
        int count = 1 + random.nextInt(8);
        for (int k = 0; k < count; k++) {
            int type = 1 + random.nextInt(1000);
            byte[] payload = new byte[random.nextInt(4) == 0 ? max : random.nextInt(max + 1)];
            random.nextBytes(payload);
            boolean written = batch.write(type, payload, 0, payload.length);
            boolean agronaWritten = agrona.write(type, new UnsafeBuffer(payload), 0, payload.length);
            assertEquals(agronaWritten, written, "batch write " + k + " accepted differs from Agrona at step " + step);
            if (!written) {
                break;
            }
            model.add(new Message(type, payload));
        }
        int size = batch.size();
        assertEquals(size, batch.finish(), "finish counts the batch's messages");
        assertEquals(0, batch.size(), "a finished batch is empty");
    }

    /** Up to 8 messages of one size filled in place, against Agrona's one-by-one writes until one fails. */
    private static void fillerBatch(SplittableRandom random, RingProducer producer, OneToOneRingBuffer agrona,
            ArrayDeque<Message> model, int size, int step) {
        int type = 1 + random.nextInt(1000);
        int max = 1 + random.nextInt(8);
        byte[][] payloads = new byte[max][size];
        for (byte[] payload : payloads) {
            random.nextBytes(payload);
        }
        int written = producer.writeBatch(type, size, max, (k, buffer, offset, length) -> {
            assertEquals(size, length);
            MemorySegment.copy(payloads[k], 0, buffer, ValueLayout.JAVA_BYTE, offset, length);
        });
        int agronaWritten = 0;
        while (agronaWritten < max && agrona.write(type, new UnsafeBuffer(payloads[agronaWritten]), 0, size)) {
            agronaWritten++;
        }
        assertEquals(agronaWritten, written, "filled batch count differs from Agrona at step " + step);
        for (int k = 0; k < written; k++) {
            model.add(new Message(type, payloads[k]));
        }
    }

    /** Up to 8 segments of random sizes as one batch, against Agrona's one-by-one writes. */
    private static void segmentBatch(SplittableRandom random, RingProducer producer, OneToOneRingBuffer agrona,
            ArrayDeque<Message> model, int max, Arena arena, int step) {
        int type = 1 + random.nextInt(1000);
        int count = 1 + random.nextInt(8);
        MemorySegment[] segments = new MemorySegment[count + 1];
        byte[][] payloads = new byte[count + 1][];
        for (int k = 0; k <= count; k++) {
            payloads[k] = new byte[random.nextInt(4) == 0 ? max : random.nextInt(max + 1)];
            random.nextBytes(payloads[k]);
            segments[k] = arena.allocate(Math.max(1, payloads[k].length)).asSlice(0, payloads[k].length);
            MemorySegment.copy(payloads[k], 0, segments[k], ValueLayout.JAVA_BYTE, 0, payloads[k].length);
        }
        int written = producer.writeBatch(type, segments, 1, count);
        int agronaWritten = 0;
        while (agronaWritten < count
                && agrona.write(type, new UnsafeBuffer(payloads[1 + agronaWritten]), 0, payloads[1 + agronaWritten].length)) {
            agronaWritten++;
        }
        assertEquals(agronaWritten, written, "segment batch count differs from Agrona at step " + step);
        for (int k = 0; k < written; k++) {
            model.add(new Message(type, payloads[1 + k]));
        }
    }

    private static void expect(Message expected, Message actual, int step) {
        if (expected == null) {
            throw new AssertionError("read a message the model does not have at step " + step);
        }
        assertEquals(expected.type(), actual.type(), "type at step " + step);
        assertArrayEquals(expected.payload(), actual.payload(), "payload at step " + step);
    }
}
