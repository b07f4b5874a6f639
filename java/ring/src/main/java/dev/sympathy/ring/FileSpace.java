package dev.sympathy.ring;

import dev.sympathy.mapped.NoSpaceError;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reserving a ring file's blocks (the shared {@link dev.sympathy.mapped.FileSpace}), its
 * {@link NoSpaceError} in the ring's words: a {@link NoSpaceException}.
 *
 * <pre>{@code
 * FileSpace.reserve(path, RingDescriptor.fileLength(capacity));   // NoSpaceException when it does not fit
 * }</pre>
 */
final class FileSpace {
    private FileSpace() {}

    /**
     * Allocates the first {@code length} bytes of a new ring file (see
     * {@link dev.sympathy.mapped.FileSpace#reserve}).
     *
     * @throws NoSpaceException if the filesystem has no room for it
     * @throws IOException for any other failure
     */
    static void reserve(Path path, long length) throws IOException {
        try {
            dev.sympathy.mapped.FileSpace.reserve(path, length);
        } catch (NoSpaceError e) {
            throw new NoSpaceException(path.toString(), e, length);
        }
    }

    /**
     * Allocates the holes of an existing ring file that peers may have mapped (see
     * {@link dev.sympathy.mapped.FileSpace#allocateHoles}: never a write of zeros).
     *
     * @throws NoSpaceException if the filesystem has no room for the file's missing blocks
     * @throws IOException for any other failure
     */
    static void allocateHoles(Path path, long length) throws IOException {
        try {
            dev.sympathy.mapped.FileSpace.allocateHoles(path, length);
        } catch (NoSpaceError e) {
            throw new NoSpaceException(path.toString(), e, length);
        }
    }
}
