package dev.sympathy.app;

/** A received message differs from the test pattern; the message names the first difference. */
final class PatternMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PatternMismatchException(String message) {
        super(message);
    }
}
