package dev.sympathy.ring;

import dev.sympathy.mapped.OpenErrors;
import java.time.Duration;

/**
 * The ring's exceptions for the open steps every mapped file shares
 * ({@link dev.sympathy.mapped.MappedOpen}): a hostile file is refused with a
 * {@link RingException} of the kind and message the ring always gave.
 *
 * <pre>{@code
 * MappedOpen opener = new MappedOpen(RingDescriptor.KIND, RingOpenErrors.ERRORS, RingOpenErrors::notCreated);
 * }</pre>
 */
final class RingOpenErrors {
    /** The ring's constructor for each refusal of the shared open. */
    static final OpenErrors ERRORS = new OpenErrors(
            NotARegularFileException::new,
            // The ring's message always says "open the ring file".
            (path, operation, cause) -> new PermissionDeniedException(path, cause),
            RingIoException::new,
            TruncatedFileException::shorterThanTheHeader,
            NotARingFileException::new,
            CorruptHeaderException::new,
            (timeout, waited) -> RingTimeoutException.notReady(timeout), // the ring names its timeout
            UnsupportedVersionException::new);

    private RingOpenErrors() {
    }

    /** A path that still does not exist when the open's timeout ends (the ring waits for its creator). */
    static RingTimeoutException notCreated(String path, Duration timeout) {
        return new RingTimeoutException(path + " to be created", timeout.toMillis());
    }
}
