package dev.sympathy.mapped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same answers as the Rust {@code sympathy_mapped::space}'s tests. */
class FileSpaceTest {
    @TempDir
    Path dir;

    @Test
    void shouldKeepTheRustMarginFree() {
        assertEquals(4L << 20, FileSpace.keptFree(64L << 20)); // Docker's /dev/shm
        assertEquals(256L << 20, FileSpace.keptFree(64L << 30));
        assertEquals(16L << 10, FileSpace.keptFree(64L << 10));
    }

    @Test
    void shouldRefuseAFileLargerThanTheFreeSpaceBeforeTakingAnything() throws IOException {
        Path file = dir.resolve("huge");
        Files.createFile(file);
        long free = Files.getFileStore(dir).getUsableSpace();
        NoSpaceError error = assertThrows(NoSpaceError.class, () -> FileSpace.reserve(file, free + (1L << 30)));
        assertTrue(error.available() > 0 && error.kept() > 0, error.getMessage());
        assertEquals(0, Files.size(file), "nothing reserved");
    }

    @Test
    void shouldReserveAFileThatFits() throws IOException {
        Path file = dir.resolve("fits");
        Files.createFile(file);
        FileSpace.reserve(file, 3 * FileSpace.RESERVE_STEP / 2);
        assertEquals(3 * FileSpace.RESERVE_STEP / 2, Files.size(file));
        FileSpace.allocateHoles(file, Files.size(file)); // no holes: nothing to do
        assertFalse(Files.size(file) > 3 * FileSpace.RESERVE_STEP / 2);
    }
}
