package dev.sympathy.jni;

import dev.sympathy.ring.AlreadyAttachedException;
import dev.sympathy.ring.CapacityNotPowerOfTwoException;
import dev.sympathy.ring.CorruptHeaderException;
import dev.sympathy.ring.CorruptRecordException;
import dev.sympathy.ring.InvalidTypeIdException;
import dev.sympathy.ring.MessageTooLongException;
import dev.sympathy.ring.NotARegularFileException;
import dev.sympathy.ring.NoSpaceException;
import dev.sympathy.ring.NotARingFileException;
import dev.sympathy.ring.PeerDeadException;
import dev.sympathy.ring.PermissionDeniedException;
import dev.sympathy.ring.RingKind;
import dev.sympathy.ring.RingTimeoutException;
import dev.sympathy.ring.TruncatedFileException;
import dev.sympathy.ring.UnsupportedVersionException;
import dev.sympathy.ring.WrongKindException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Turns an error of the Rust ring into the exception the FFM ring throws for the same kind.
 * Called from the native library (bindings/jni/src/error.rs, whose kind codes these are) only.
 */
final class NativeErrors {
    private NativeErrors() {}

    static RuntimeException exception(int kind, String message, String path, String detail, long a, long b,
            long c) {
        return switch (kind) {
            case 1 -> new NotARingFileException(path, message);
            case 2 -> new UnsupportedVersionException(path, (int) a);
            case 3 -> new TruncatedFileException(path, a, b);
            case 4 -> new CorruptHeaderException(path, detail);
            case 5 -> new CapacityNotPowerOfTwoException(a);
            case 6 -> new CorruptRecordException(a, message);
            case 7 -> new MessageTooLongException(a, (int) b);
            case 8 -> new InvalidTypeIdException((int) a);
            case 9 -> new PermissionDeniedException(path, new IOException(message));
            case 10 -> new UncheckedIOException(new IOException(message));
            case 11 -> new AlreadyAttachedException(path, detail, (int) a);
            case 13 -> new RingTimeoutException(detail, a);
            case 14 -> new PeerDeadException(detail, (int) a, message);
            case 15 -> new IllegalArgumentException(message);
            case 16 -> new NotARegularFileException(path, detail);
            case 17 -> new NoSpaceException(path, detail, a, c, b);
            case 18 -> RingTimeoutException.notReady(java.time.Duration.ofMillis(a));
            case 19 -> new WrongKindException(path, RingKind.ofCode((int) a), RingKind.ofCode((int) b));
            default -> new IllegalStateException("native ring: " + message);
        };
    }
}
