package dev.sympathy.ring;

/** A record header read from shared memory is impossible (hostile or corrupted file). */
public final class CorruptRecordException extends RingException {
    private static final long serialVersionUID = 1L;

    private final long position;

    public CorruptRecordException(long position, String why) {
        super("corrupt-record", "corrupt ring at position " + position + ": " + why
                + " (the file was damaged or written by a broken peer; recreate it)");
        this.position = position;
    }

    /** The ring position (bytes since the start of the stream) of the bad record or value. */
    public long position() {
        return position;
    }
}
