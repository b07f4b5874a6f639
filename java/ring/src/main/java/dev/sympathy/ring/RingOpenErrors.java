package dev.sympathy.ring;

import dev.sympathy.mapped.MappedFileException;
import dev.sympathy.mapped.OpenErrors;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;

/**
 * The ring's exceptions for the open steps every mapped file shares
 * ({@link dev.sympathy.mapped.MappedOpen}): a hostile file is refused with a
 * {@link RingException} of the kind and message the ring always gave.
 *
 * <pre>{@code
 * MappedOpen opener = new MappedOpen(RingDescriptor.KIND, new RingOpenErrors(), RingOpenErrors::notCreated);
 * }</pre>
 */
final class RingOpenErrors implements OpenErrors {
    /** A path that still does not exist when the open's timeout ends (the ring waits for its creator). */
    static RingTimeoutException notCreated(String path, Duration timeout) {
        return new RingTimeoutException(path + " to be created", timeout.toMillis());
    }

    @Override
    public MappedFileException notARegularFile(String path, String what) {
        return new NotARegularFileException(path, what);
    }

    @Override
    public MappedFileException permissionDenied(String path, String operation, AccessDeniedException cause) {
        return new PermissionDeniedException(path, cause); // its message says "open the ring file"
    }

    @Override
    public MappedFileException io(String path, String operation, IOException cause) {
        return new RingIoException(path, operation, cause);
    }

    @Override
    public MappedFileException shorterThanHeader(String path, long length) {
        return TruncatedFileException.shorterThanTheHeader(path, length);
    }

    @Override
    public MappedFileException notThisKind(String path, long found) {
        return new NotARingFileException(path, found);
    }

    @Override
    public MappedFileException corruptHeader(String path, String what) {
        return new CorruptHeaderException(path, what);
    }

    @Override
    public MappedFileException notReady(Duration timeout, Duration waited) {
        return RingTimeoutException.notReady(timeout); // the ring names its timeout
    }

    @Override
    public MappedFileException unsupportedVersion(String path, int found) {
        return new UnsupportedVersionException(path, found);
    }
}
