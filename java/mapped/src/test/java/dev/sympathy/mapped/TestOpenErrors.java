package dev.sympathy.mapped;

/** The {@link OpenErrors} of a made-up kind for the core's tests: one exception class, the kind's name in it. */
final class TestOpenErrors {
    /** A kind like the ring, with its own magic ("TESTFILE"). */
    static final FileKind KIND = new FileKind("test", 0x454C_4946_5453_4554L, 1, 1, "make-test-file",
            "make it again", "the test needs read and write access", "smaller");

    /** The one exception class of the test kind. */
    static final class TestFileException extends MappedFileException {
        private static final long serialVersionUID = 1L;

        TestFileException(String kind, String message) {
            super(kind, message);
        }
    }

    /** The test kind's exception for each refusal, with {@link FileMessages}' sentence. */
    static final OpenErrors ERRORS = new OpenErrors(
            (path, what) -> new TestFileException("not-a-regular-file", FileMessages.notARegularFile(KIND, path, what)),
            (path, operation, cause) -> new TestFileException("permission-denied",
                    FileMessages.permissionDenied(KIND, path, operation)),
            (path, operation, cause) -> new TestFileException("io", FileMessages.io(path, operation, cause)),
            (path, length) -> new TestFileException("file-length", FileMessages.shorterThanHeader(KIND, path, length)),
            (path, found) -> new TestFileException(KIND.notThisKind(), FileMessages.notThisKind(KIND, path, found)),
            (path, what) -> new TestFileException("corrupt-header", FileMessages.corruptHeader(KIND, path, what)),
            (timeout, waited) -> new TestFileException("timeout", FileMessages.notReady(KIND, waited)),
            (path, found) -> new TestFileException("unsupported-version",
                    FileMessages.unsupportedVersion(KIND, path, found)));

    private TestOpenErrors() {
    }
}
