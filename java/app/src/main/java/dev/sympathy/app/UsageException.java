package dev.sympathy.app;

/** A bad command line: the message says what was wrong; the sidecar exits with status 2. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
