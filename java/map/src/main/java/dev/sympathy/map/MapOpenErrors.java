package dev.sympathy.map;

import dev.sympathy.mapped.MappedFileException;
import dev.sympathy.mapped.OpenErrors;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;

/**
 * The map's exceptions for the open steps every mapped file shares
 * ({@link dev.sympathy.mapped.MappedOpen}): a hostile file is refused with a
 * {@link MapException} of the kind and message the map always gave.
 *
 * <pre>{@code
 * MappedOpen opener = new MappedOpen(MapDescriptor.KIND, new MapOpenErrors());
 * }</pre>
 */
final class MapOpenErrors implements OpenErrors {
    @Override
    public MappedFileException notARegularFile(String path, String what) {
        return new NotARegularFileException(path, what);
    }

    @Override
    public MappedFileException permissionDenied(String path, String operation, AccessDeniedException cause) {
        return new PermissionDeniedException(path, operation);
    }

    @Override
    public MappedFileException io(String path, String operation, IOException cause) {
        return new MapIoException(path, operation, cause);
    }

    @Override
    public MappedFileException shorterThanHeader(String path, long length) {
        return new FileLengthException(path, length);
    }

    @Override
    public MappedFileException notThisKind(String path, long found) {
        return new NotAMapFileException(path, found);
    }

    @Override
    public MappedFileException corruptHeader(String path, String what) {
        return new CorruptHeaderException(path, what);
    }

    @Override
    public MappedFileException notReady(Duration timeout, Duration waited) {
        return new MapTimeoutException(waited.toMillis()); // the map names how long it waited
    }

    @Override
    public MappedFileException unsupportedVersion(String path, int found) {
        return new UnsupportedVersionException(path, found);
    }
}
