package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.broadcast.BroadcastBufferDescriptor;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

/**
 * The Java descriptor against the other two descriptions of the format: Agrona's own constants,
 * and the Rust descriptor as printed by {@code sympathy ring layout} ({@code NAME=decimal} lines).
 * The Rust comparison reads the file named by {@code -Dsympathy.layout.file} or
 * {@code SYMPATHY_LAYOUT_FILE} (ci/java-test writes it when the Rust binary offers the command).
 */
class LayoutParityTest {
    /** The names the Rust side must print (the lead's contract for `sympathy ring layout`). */
    static final List<String> SHARED_NAMES = List.of("HEADER_LENGTH", "MAGIC", "LAYOUT_VERSION", "READY_OFFSET",
            "CAPACITY_OFFSET", "MAX_MESSAGE_LENGTH_OFFSET", "HEADER_LENGTH_OFFSET", "CREATION_TIME_OFFSET",
            "PRODUCER_PID_OFFSET", "PRODUCER_HEARTBEAT_OFFSET", "PRODUCER_DETACHED_OFFSET", "CONSUMER_PID_OFFSET",
            "CONSUMER_DETACHED_OFFSET", "CONSUMER_WAKE_ARMED_OFFSET", "CONSUMER_WAITING_OFFSET", "CONSUMER_WAKE_SEQ_OFFSET",
            "PRODUCER_WAKE_ARMED_OFFSET", "PRODUCER_WAITING_OFFSET", "PRODUCER_WAKE_SEQ_OFFSET", "TRAILER_LENGTH",
            "TAIL_POSITION_OFFSET", "HEAD_CACHE_POSITION_OFFSET", "HEAD_POSITION_OFFSET", "CORRELATION_COUNTER_OFFSET",
            "CONSUMER_HEARTBEAT_OFFSET", "RECORD_HEADER_LENGTH", "RECORD_ALIGNMENT", "LENGTH_OFFSET", "TYPE_OFFSET",
            "PADDING_MSG_TYPE_ID", "KIND_LAYOUT_VERSION", "KIND_OFFSET", "KIND_ONE_TO_ONE", "KIND_MANY_TO_ONE",
            "KIND_BROADCAST", "BROADCAST_TRAILER_LENGTH", "BROADCAST_TAIL_INTENT_OFFSET", "BROADCAST_TAIL_OFFSET",
            "BROADCAST_LATEST_OFFSET");

    @Test
    void shouldMatchAgronasDescriptors() {
        assertEquals(RingBufferDescriptor.TRAILER_LENGTH, RingDescriptor.TRAILER_LENGTH);
        assertEquals(RingBufferDescriptor.TAIL_POSITION_OFFSET, RingDescriptor.TAIL_POSITION_OFFSET);
        assertEquals(RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET, RingDescriptor.HEAD_CACHE_POSITION_OFFSET);
        assertEquals(RingBufferDescriptor.HEAD_POSITION_OFFSET, RingDescriptor.HEAD_POSITION_OFFSET);
        assertEquals(RingBufferDescriptor.CORRELATION_COUNTER_OFFSET, RingDescriptor.CORRELATION_COUNTER_OFFSET);
        assertEquals(RingBufferDescriptor.CONSUMER_HEARTBEAT_OFFSET, RingDescriptor.CONSUMER_HEARTBEAT_OFFSET);
        assertEquals(RecordDescriptor.HEADER_LENGTH, RingDescriptor.RECORD_HEADER_LENGTH);
        assertEquals(RecordDescriptor.ALIGNMENT, RingDescriptor.RECORD_ALIGNMENT);
        assertEquals(RecordDescriptor.lengthOffset(0), RingDescriptor.LENGTH_OFFSET);
        assertEquals(RecordDescriptor.typeOffset(0), RingDescriptor.TYPE_OFFSET);
        assertEquals(org.agrona.concurrent.ringbuffer.RingBuffer.PADDING_MSG_TYPE_ID, RingDescriptor.PADDING_MSG_TYPE_ID);
    }

    @Test
    void shouldMatchAgronasBroadcastDescriptors() {
        assertEquals(BroadcastBufferDescriptor.TRAILER_LENGTH, RingDescriptor.BROADCAST_TRAILER_LENGTH);
        assertEquals(BroadcastBufferDescriptor.TAIL_INTENT_COUNTER_OFFSET, RingDescriptor.BROADCAST_TAIL_INTENT_OFFSET);
        assertEquals(BroadcastBufferDescriptor.TAIL_COUNTER_OFFSET, RingDescriptor.BROADCAST_TAIL_OFFSET);
        assertEquals(BroadcastBufferDescriptor.LATEST_COUNTER_OFFSET, RingDescriptor.BROADCAST_LATEST_OFFSET);
        assertEquals(org.agrona.concurrent.broadcast.RecordDescriptor.HEADER_LENGTH, RingDescriptor.RECORD_HEADER_LENGTH);
        assertEquals(org.agrona.concurrent.broadcast.RecordDescriptor.RECORD_ALIGNMENT, RingDescriptor.RECORD_ALIGNMENT);
        assertEquals(org.agrona.concurrent.broadcast.RecordDescriptor.TYPE_OFFSET, RingDescriptor.TYPE_OFFSET);
        assertEquals(org.agrona.concurrent.broadcast.RecordDescriptor.PADDING_MSG_TYPE_ID,
                RingDescriptor.PADDING_MSG_TYPE_ID);
        assertEquals(org.agrona.concurrent.broadcast.RecordDescriptor.calculateMaxMessageLength(1024),
                RingDescriptor.maxMessageLength(1024));
    }

    @Test
    void shouldListTheKindsInTheirHeaderOrder() {
        assertEquals(List.of(RingDescriptor.KIND_ONE_TO_ONE, RingDescriptor.KIND_MANY_TO_ONE, RingDescriptor.KIND_BROADCAST),
                java.util.Arrays.stream(RingKind.values()).map(RingKind::code).toList());
        assertEquals(List.of("spsc", "mpsc", "broadcast"),
                java.util.Arrays.stream(RingKind.values()).map(RingKind::cliName).toList());
        assertEquals(RingDescriptor.LAYOUT_VERSION, RingKind.ONE_TO_ONE.layoutVersion());
        assertEquals(RingDescriptor.KIND_LAYOUT_VERSION, RingKind.BROADCAST.layoutVersion());
        assertEquals(4096 + 1024 + 768, RingKind.MANY_TO_ONE.fileLength(1024));
        assertEquals(4096 + 1024 + 128, RingKind.BROADCAST.fileLength(1024));
    }

    @Test
    void shouldSpellTheMagicAsSympring() {
        byte[] ascii = new byte[8];
        for (int i = 0; i < 8; i++) {
            ascii[i] = (byte) (RingDescriptor.MAGIC >>> (8 * i));
        }
        assertEquals("SYMPRING", new String(ascii, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void shouldMatchTheRustDescriptor() throws IOException {
        String file = System.getProperty("sympathy.layout.file", System.getenv("SYMPATHY_LAYOUT_FILE"));
        assumeTrue(file != null && !file.isBlank(), "no Rust layout to compare with: set -Dsympathy.layout.file or "
                + "SYMPATHY_LAYOUT_FILE to the output of `sympathy ring layout` (ci/java-test does when it exists)");
        Map<String, Long> rust = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(file))) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            assertTrue(eq > 0, "not a NAME=decimal line: '" + line + "'");
            rust.put(line.substring(0, eq).strip(), Long.parseLong(line.substring(eq + 1).strip()));
        }
        Map<String, Long> java = RingDescriptor.constants();
        for (String name : SHARED_NAMES) {
            assertTrue(rust.containsKey(name), "the Rust layout does not print " + name);
            assertEquals(java.get(name), rust.get(name), name + " differs: Java " + java.get(name) + ", Rust " + rust.get(name));
        }
        for (var entry : rust.entrySet()) {
            if (java.containsKey(entry.getKey())) {
                assertEquals(java.get(entry.getKey()), entry.getValue(), entry.getKey() + " differs between Java and Rust");
            }
        }
    }
}
