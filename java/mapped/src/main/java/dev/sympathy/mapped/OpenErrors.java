package dev.sympathy.mapped;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;

/**
 * The exceptions one kind of mapped file (the ring, the map) throws when {@link MappedOpen}
 * refuses a file: a table of the kind's constructors, one for each step of the shared open, so a
 * ring refusal is still a {@code RingException} and a map refusal a {@code MapException}, with
 * the kind of error ({@link MappedFileException#kind()}) and the message each kind gave before
 * the open was shared (mostly {@link FileMessages}' sentences, in the kind's words). The open
 * calls one of them only when it refuses a file, never on a file it accepts.
 *
 * <pre>{@code
 * static final OpenErrors RING = new OpenErrors(
 *         NotARegularFileException::new,
 *         (path, operation, cause) -> new PermissionDeniedException(path, cause),
 *         ...);
 * }</pre>
 *
 * @param notARegularFile kind {@code not-a-regular-file}; the detail is what the path is, as
 *     {@link RegularFiles#problem} names it
 * @param permissionDenied kind {@code permission-denied}; the operation is what was refused:
 *     {@code "open the ring file"}, {@code "map the map file"}
 * @param io kind {@code io}: any other error of the operating system, a path that does not exist
 *     included (unless the opener waits for it, {@link MappedOpen#MappedOpen(FileKind, OpenErrors,
 *     java.util.function.BiFunction)}); the operation is what failed
 * @param shorterThanHeader kind {@code file-length}: the file's length (the detail) is still
 *     shorter than the header page when the timeout ends
 * @param notThisKind kind {@link FileKind#notThisKind()}: the magic found (the detail) is another
 *     kind's, or noise
 * @param corruptHeader kind {@code corrupt-header}: the detail names the field and what it should be
 * @param notReady kind {@code timeout}: the creator never set {@code ready}
 * @param unsupportedVersion kind {@code unsupported-version}: the detail is the version found
 */
public record OpenErrors(
        AtPath<String> notARegularFile,
        Refused<AccessDeniedException> permissionDenied,
        Refused<IOException> io,
        AtPath<Long> shorterThanHeader,
        AtPath<Long> notThisKind,
        AtPath<String> corruptHeader,
        NotReady notReady,
        AtPath<Integer> unsupportedVersion) {

    /** The kind's exception for a file at {@code path}, with what the step found there. */
    @FunctionalInterface
    public interface AtPath<D> {
        MappedFileException of(String path, D detail);
    }

    /** The kind's exception for an operation the operating system refused on the file at {@code path}. */
    @FunctionalInterface
    public interface Refused<E extends IOException> {
        MappedFileException of(String path, String operation, E cause);
    }

    /** The kind's exception for a creator that never set {@code ready}. */
    @FunctionalInterface
    public interface NotReady {
        /**
         * @param timeout the open's timeout
         * @param waited how long the open waited for {@code ready} (once the header page was there)
         */
        MappedFileException of(Duration timeout, Duration waited);
    }
}
