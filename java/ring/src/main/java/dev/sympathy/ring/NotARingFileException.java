package dev.sympathy.ring;

/** The file is not a sympathy ring file (wrong magic or a header that contradicts itself). */
public final class NotARingFileException extends RingException {
    private static final long serialVersionUID = 1L;

    public NotARingFileException(String path, String why) {
        super("not-a-ring-file", path + ": not a sympathy ring file: " + why + " (create one with `create PATH --capacity BYTES`)");
    }
}
