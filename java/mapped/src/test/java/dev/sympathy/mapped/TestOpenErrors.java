package dev.sympathy.mapped;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;

/** The {@link OpenErrors} of a made-up kind for the core's tests: one exception class, the kind's name in it. */
final class TestOpenErrors implements OpenErrors {
    /** A kind like the ring, with its own magic ("TESTFILE"). */
    static final FileKind KIND = new FileKind("test", 0x454C_4946_5453_4554L, 1, "make-test-file",
            "make it again", "the test needs read and write access", "smaller");

    /** The one exception class of the test kind. */
    static final class TestFileException extends MappedFileException {
        private static final long serialVersionUID = 1L;

        TestFileException(String kind, String message) {
            super(kind, message);
        }
    }

    @Override
    public MappedFileException notARegularFile(String path, String what) {
        return new TestFileException("not-a-regular-file", FileMessages.notARegularFile(KIND, path, what));
    }

    @Override
    public MappedFileException permissionDenied(String path, String operation, AccessDeniedException cause) {
        return new TestFileException("permission-denied", FileMessages.permissionDenied(KIND, path, operation));
    }

    @Override
    public MappedFileException io(String path, String operation, IOException cause) {
        return new TestFileException("io", FileMessages.io(path, operation, cause));
    }

    @Override
    public MappedFileException shorterThanHeader(String path, long length) {
        return new TestFileException("file-length", FileMessages.shorterThanHeader(KIND, path, length));
    }

    @Override
    public MappedFileException notThisKind(String path, long found) {
        return new TestFileException(KIND.notThisKind(), FileMessages.notThisKind(KIND, path, found));
    }

    @Override
    public MappedFileException corruptHeader(String path, String what) {
        return new TestFileException("corrupt-header", FileMessages.corruptHeader(KIND, path, what));
    }

    @Override
    public MappedFileException notReady(Duration timeout, Duration waited) {
        return new TestFileException("timeout", FileMessages.notReady(KIND, waited));
    }

    @Override
    public MappedFileException unsupportedVersion(String path, int found) {
        return new TestFileException("unsupported-version", FileMessages.unsupportedVersion(KIND, path, found));
    }
}
