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

    /**
     * A sparse ring file (sized with {@code setLength}) on a filesystem that cannot hold it: the
     * first touch of a hole of its mapping would be a {@code SIGBUS} (on tmpfs even a read);
     * {@link RingFile#open} reserves the holes first and says so, with create's message,
     * having written nothing.
     */
    @Test
    void shouldRefuseToOpenASparseRingTheFilesystemCannotHold() throws Exception {
        Path fs = smallFilesystem("64k");
        Path path = sparseRing(dir.resolve("model"), fs.resolve("ring"), 65536);
        byte[] before = Files.readAllBytes(path);
        NoSpaceException e = assertThrows(NoSpaceException.class,
                () -> RingFile.open(path, java.time.Duration.ofSeconds(5)));
        assertEquals(RingDescriptor.fileLength(65536), e.needed());
        assertTrue(e.getMessage().contains(fs + " (tmpfs)"), e.getMessage());
        assertTrue(e.getMessage().contains("smaller capacity"), e.getMessage());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(path)), "open wrote to the file");
        // One that fits gets its blocks; reserving again is a no-op.
        Files.delete(path);
        Path small = sparseRing(dir.resolve("model2"), fs.resolve("small"), 4096);
        long freeBefore = Files.getFileStore(fs).getUsableSpace();
        try (RingFile ring = RingFile.open(small, java.time.Duration.ofSeconds(5))) {
            long taken = freeBefore - Files.getFileStore(fs).getUsableSpace();
            assertTrue(taken >= RingDescriptor.fileLength(4096) - RingDescriptor.HEADER_LENGTH, "took " + taken);
            ring.reserveSpace();
            assertEquals(taken, freeBefore - Files.getFileStore(fs).getUsableSpace());
        }
    }

    /**
     * Writes at {@code path} a ring file of {@code capacity} whose header page is the only data
     * and whose rest is a hole (a create that only set the length), from a model ring made at
     * {@code model}.
     */
    static Path sparseRing(Path model, Path path, long capacity) throws IOException {
        RingFile.create(model, capacity).close();
        byte[] header = java.util.Arrays.copyOf(Files.readAllBytes(model), RingDescriptor.HEADER_LENGTH);
        try (var file = new java.io.RandomAccessFile(path.toFile(), "rw")) {
            file.write(header);
            file.setLength(RingDescriptor.fileLength(capacity));
        }
        return path;
    }
}
