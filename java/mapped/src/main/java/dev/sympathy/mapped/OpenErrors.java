package dev.sympathy.mapped;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;

/**
 * The exceptions one kind of mapped file (the ring, the map) throws when {@link MappedOpen}
 * refuses a file: each step of the shared open asks the kind for its own exception class, so a
 * ring refusal is still a {@code RingException} and a map refusal a {@code MapException}, with
 * the kind of error ({@link MappedFileException#kind()}) and the message each kind gave before
 * the open was shared (mostly {@link FileMessages}' sentences, in the kind's words).
 *
 * <pre>{@code
 * final class RingOpenErrors implements OpenErrors {
 *     public MappedFileException notThisKind(String path, long magic) {
 *         return new NotARingFileException(path, magic);
 *     }
 *     ...
 * }
 * }</pre>
 */
public interface OpenErrors {
    /** Kind {@code not-a-regular-file}; {@code what} as {@link RegularFiles#problem} names it. */
    MappedFileException notARegularFile(String path, String what);

    /**
     * Kind {@code permission-denied}.
     *
     * @param operation what was refused: {@code "open the ring file"}, {@code "map the map file"}
     */
    MappedFileException permissionDenied(String path, String operation, AccessDeniedException cause);

    /**
     * Kind {@code io}: any other error of the operating system, a path that does not exist
     * included (unless the opener waits for it, {@link MappedOpen#MappedOpen(FileKind, OpenErrors,
     * java.util.function.BiFunction)}).
     *
     * @param operation what failed: {@code "open the ring file"}, {@code "map the map file"}
     */
    MappedFileException io(String path, String operation, IOException cause);

    /** Kind {@code file-length}: still shorter than the header page when the timeout ends. */
    MappedFileException shorterThanHeader(String path, long length);

    /** Kind {@link FileKind#notThisKind()}: the magic {@code found} is another kind's, or noise. */
    MappedFileException notThisKind(String path, long found);

    /** Kind {@code corrupt-header}: {@code what} names the field and what it should be. */
    MappedFileException corruptHeader(String path, String what);

    /**
     * Kind {@code timeout}: the creator never set {@code ready}.
     *
     * @param timeout the open's timeout
     * @param waited how long the open waited for {@code ready} (once the header page was there)
     */
    MappedFileException notReady(Duration timeout, Duration waited);

    /** Kind {@code unsupported-version}. */
    MappedFileException unsupportedVersion(String path, int found);
}
