package dev.sympathy.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The hostile inputs shared with Rust ({@code schema/hostile/cases.txt}): every case gets the
 * answer the file gives, as crates/messages/tests/hostile.rs checks for Rust; every truncation of
 * a golden message is {@code truncated}.
 */
class HostileTest {
    private final SbeMessages sbe = new SbeMessages();

    record Case(String message, String kind, byte[] bytes, String description) {}

    static List<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        for (String line : Files.readAllLines(GoldenValues.schemaDir().resolve("hostile/cases.txt"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int hash = line.indexOf('#');
            String[] fields = (hash < 0 ? line : line.substring(0, hash)).trim().split("\\s+");
            assertEquals(3, fields.length, line);
            byte[] bytes = fields[2].equals("-") ? new byte[0] : HexFormat.of().parseHex(fields[2]);
            cases.add(new Case(fields[0], fields[1], bytes, hash < 0 ? "" : line.substring(hash + 1).trim()));
        }
        return cases;
    }

    /** {@code ok}, or the exception's kind. */
    String answer(String message, byte[] bytes) {
        // Bytes at an offset inside a larger buffer, as a ring record's are: nothing outside is read.
        byte[] padded = new byte[bytes.length + 32];
        System.arraycopy(bytes, 0, padded, 16, bytes.length);
        UnsafeBuffer buffer = new UnsafeBuffer(padded);
        try {
            switch (message) {
                case "order" -> sbe.decodeOrder(buffer, 16, bytes.length);
                case "price-update" -> sbe.decodePriceUpdate(buffer, 16, bytes.length);
                default -> throw new IllegalArgumentException("unknown message " + message);
            }
            return "ok";
        } catch (MessageFormatException e) {
            return e.kind();
        }
    }

    @Test
    void everySharedCaseGetsTheFilesAnswer() throws IOException {
        List<Case> cases = cases();
        assertTrue(cases.size() >= 30, "cases: " + cases.size());
        Set<String> kinds = new TreeSet<>();
        for (Case c : cases) {
            assertEquals(c.kind(), answer(c.message(), c.bytes()), c.message() + ": " + c.description());
            kinds.add(c.kind());
        }
        assertTrue(kinds.containsAll(Set.of("ok", "truncated", "wrong-schema", "wrong-template", "bad-block-length",
                "bad-enum", "bad-symbol", "too-long", "bad-utf8")), kinds.toString());
    }

    @Test
    void everyTruncationOfAGoldenMessageIsTruncated() throws IOException {
        for (String[] golden : new String[][] {{"order", "order.rust.sbe"}, {"price-update", "price-update.rust.sbe"}}) {
            byte[] bytes = Files.readAllBytes(GoldenValues.schemaDir().resolve("golden").resolve(golden[1]));
            for (int length = 0; length < bytes.length; length++) {
                assertEquals("truncated", answer(golden[0], java.util.Arrays.copyOf(bytes, length)),
                        golden[1] + "[.." + length + "]");
            }
            assertEquals("ok", answer(golden[0], bytes));
        }
    }
}
