package dev.sympathy.jmh.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.jmh.queue.Queues;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The layout report names every class and places every object of a queue in the heap. */
class LayoutEvidenceTest {
    @Test
    void shouldReportEveryClassAndBothPlacementsOfEachVariant() throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LayoutEvidence.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), "p1c1");
        final String report = bytes.toString(StandardCharsets.UTF_8);
        for (String name : LayoutEvidence.CLASSES) {
            assertTrue(report.contains("## class " + name), "missing the layout of " + name);
        }
        assertTrue(report.contains("## heap placement of p1c1 (capacity 32768), as allocated"), report);
        assertTrue(report.contains("## heap placement of p1c1 after System.gc() moved it"), report);
        assertTrue(report.contains("## footprint of one decoded serialization Order"), report);
    }

    @Test
    void shouldListTheQueueAndItsArraysInAddressOrderWithTheirSizes() {
        final String placement = LayoutEvidence.placement(Queues.create("p1c1", LayoutEvidence.CAPACITY));
        // the header line, then one line per object: the queue (its counters are padded fields
        // of the object itself) and its int[] of slots, padded by 32 ints (128 bytes) at each end
        final String[] lines = placement.strip().split("\n");
        assertEquals(3, lines.length, placement);
        assertTrue(placement.contains("P1C1IntQueue (root)"), placement);
        // 32768 slots, 2 x 32 ints of padding and the 16-byte array header
        assertTrue(placement.matches("(?s).* " + ((LayoutEvidence.CAPACITY + 64) * 4 + 16) + " .*int\\[\\] .buffer.*"), placement);
        long previous = -1;
        for (int i = 1; i < lines.length; i++) {
            final long address = Long.decode(lines[i].substring(0, lines[i].indexOf(' ')));
            assertTrue(address > previous, "not in address order: " + placement);
            previous = address;
        }
    }
}
