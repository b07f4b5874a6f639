package dev.sympathy.mapped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same answers as the Rust crate sympathy-mapped's tests. */
class ProcessesTest {
    @TempDir
    Path dir;

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void shouldReadTheStateLetterAfterTheLastParenthesis() {
        assertEquals('S', Processes.stateLetter(ascii("4242 (sleep) S 1 4242")));
        assertEquals('Z', Processes.stateLetter(ascii("4242 (a) S (b)) Z 1 4242")));
        assertEquals('X', Processes.stateLetter(ascii("4242 (odd name) X 1")));
        assertEquals(-1, Processes.stateLetter(ascii("garbage")));
        assertEquals(-1, Processes.stateLetter(ascii("1 (x)")));
    }

    @Test
    void shouldTakeABootFromTheFirst16HexDigitsOfItsId() {
        assertEquals(0x0f1e_2d3c_4b5a_6978L, Processes.bootFromId("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n"));
        assertEquals(0, Processes.bootFromId("0f1e-zz"));
        assertNotEquals(0, Processes.currentBoot(), "Linux gives every boot an id");
    }

    @Test
    void shouldReadTheStartTimeFromField22() {
        assertEquals(99, Processes.startTicks(ascii("1 (a) b) R 0 1 1 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 99 12 3")));
        assertEquals(4321, Processes.startTicks(ascii("7 (x y) S 1 7 7 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 4321 0")));
        assertEquals(-1, Processes.startTicks(ascii("1 (x) R 0")));
    }

    @Test
    void shouldTellThisProcessFromAReusedPid() {
        ProcessStamp me = ProcessStamp.current();
        assertNotEquals(0, me.start(), "/proc/self/stat gives a start time");
        assertTrue(me.isRunning());
        assertFalse(new ProcessStamp(me.pid(), me.start() + 1).isRunning(), "same pid, another start: not us");
        assertFalse(ProcessStamp.NOBODY.isRunning());
        assertFalse(Processes.alive(0));
        assertTrue(Processes.alive(ProcessHandle.current().pid()));
    }

    @Test
    void shouldPackAStampIntoOneWord() {
        ProcessStamp s = new ProcessStamp(0x7fff_0001, 0xdead_beef);
        assertEquals(0xdead_beef_7fff_0001L, s.pack());
        assertEquals(s, ProcessStamp.unpack(s.pack()));
        assertEquals(0, ProcessStamp.NOBODY.pack());
    }

    @Test
    void shouldNameWhatIsNotARegularFile() throws IOException {
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertNull(RegularFiles.problem(file));
        assertEquals("a directory", RegularFiles.problem(dir));
        Path link = Files.createSymbolicLink(dir.resolve("zero"), Path.of("/dev/zero"));
        assertEquals("a character device, through a symbolic link to /dev/zero", RegularFiles.problem(link));
    }
}
