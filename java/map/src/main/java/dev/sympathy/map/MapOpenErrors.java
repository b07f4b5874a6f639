package dev.sympathy.map;

import dev.sympathy.mapped.OpenErrors;

/**
 * The map's exceptions for the open steps every mapped file shares
 * ({@link dev.sympathy.mapped.MappedOpen}): a hostile file is refused with a
 * {@link MapException} of the kind and message the map always gave.
 *
 * <pre>{@code
 * MappedOpen opener = new MappedOpen(MapDescriptor.KIND, MapOpenErrors.ERRORS);
 * }</pre>
 */
final class MapOpenErrors {
    /** The map's constructor for each refusal of the shared open. */
    static final OpenErrors ERRORS = new OpenErrors(
            NotARegularFileException::new,
            (path, operation, cause) -> new PermissionDeniedException(path, operation),
            MapIoException::new,
            FileLengthException::new,
            NotAMapFileException::new,
            CorruptHeaderException::new,
            (timeout, waited) -> new MapTimeoutException(waited.toMillis()), // the map names how long it waited
            UnsupportedVersionException::new);

    private MapOpenErrors() {
    }
}
