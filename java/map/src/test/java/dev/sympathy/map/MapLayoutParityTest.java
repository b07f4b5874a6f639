package dev.sympathy.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link MapDescriptor} against the Rust descriptor as {@code sympathy map layout} prints it
 * ({@code NAME=decimal} lines, from the file {@code -Dsympathy.map.layout.file} or
 * {@code SYMPATHY_MAP_LAYOUT_FILE} names; ci/java-test writes it): every Rust constant has its
 * Java twin with the same value.
 */
class MapLayoutParityTest {
    @Test
    void shouldSpellTheMagicAsSymphmap() {
        byte[] ascii = new byte[8];
        for (int i = 0; i < 8; i++) {
            ascii[i] = (byte) (MapDescriptor.MAGIC >>> (8 * i));
        }
        assertEquals("SYMPHMAP", new String(ascii, StandardCharsets.US_ASCII));
        assertEquals(0xb456_bcfc_34c2_cb2cL, MapDescriptor.hash(1), "the Rust hash(1)");
        assertEquals(0, MapDescriptor.hash(0));
    }

    @Test
    void shouldMatchTheRustDescriptor() throws IOException {
        String file = System.getProperty("sympathy.map.layout.file", System.getenv("SYMPATHY_MAP_LAYOUT_FILE"));
        assumeTrue(file != null && !file.isBlank(), "no Rust layout to compare with: set SYMPATHY_MAP_LAYOUT_FILE to "
                + "the output of `sympathy map layout` (ci/java-test does)");
        Map<String, String> rust = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(file))) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                rust.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        assertTrue(rust.size() > 30, "too few constants in " + file);
        Map<String, String> java = MapDescriptor.constants();
        for (var e : rust.entrySet()) {
            assertEquals(e.getValue(), java.get(e.getKey()), e.getKey() + ": Rust " + e.getValue() + ", Java "
                    + java.get(e.getKey()));
        }
        assertEquals(rust.keySet(), java.keySet(), "`map layout` prints the same names in both languages");
    }

    @Test
    void shouldListOnlyNumericConstants() {
        for (var e : MapDescriptor.constants().entrySet()) {
            assertTrue(e.getValue().matches("-?[0-9]+"), e.getKey() + "=" + e.getValue() + " is not a number");
        }
    }
}
