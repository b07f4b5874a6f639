package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filesystem too small for the ring: {@link RingFile#create} reserves the file's blocks and
 * fails with {@link NoSpaceException} naming the filesystem, leaving no file, instead of a
 * {@code SIGBUS} at the first write. Mounts a 64 KiB tmpfs, which needs root (the development
 * VM and ci run as root); elsewhere the tests are skipped, saying why.
 */
class NoSpaceTest {
    @TempDir
    Path dir;

    private Path mounted;

    /** Mounts a tmpfs of {@code size} under the temp dir, or skips the test. */
    private Path smallFilesystem(String size) throws IOException, InterruptedException {
        Path mount = Files.createDirectory(dir.resolve("small"));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor() == 0, "cannot mount a " + size + " tmpfs (needs root): " + output.strip());
        mounted = mount;
        return mount;
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (mounted != null) {
            new ProcessBuilder("umount", "-l", mounted.toString()).inheritIO().start().waitFor();
        }
    }

    @Test
    void shouldRefuseARingTheFilesystemCannotHoldAndRemoveItsFile() throws Exception {
        Path fs = smallFilesystem("64k");
        Path path = fs.resolve("ring");
        NoSpaceException e = assertThrows(NoSpaceException.class, () -> RingFile.create(path, 65536));
        assertEquals(RingDescriptor.fileLength(65536), e.needed());
        assertTrue(e.available() <= 65536, e.getMessage());
        assertTrue(e.getMessage().contains(fs + " (tmpfs)"), e.getMessage());
        assertTrue(e.getMessage().contains("70400 bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("smaller capacity"), e.getMessage());
        assertFalse(Files.exists(path), "the failed create removed its file");
        // One that fits is created with its blocks taken from the filesystem (not sparse).
        long freeBefore = Files.getFileStore(fs).getUsableSpace();
        try (RingFile ring = RingFile.create(path, 4096)) {
            assertEquals(4096, ring.capacity());
            long taken = freeBefore - Files.getFileStore(fs).getUsableSpace();
            assertTrue(taken >= RingDescriptor.fileLength(4096), "took " + taken + " bytes");
        }
    }
}
