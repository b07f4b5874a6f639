package dev.sympathy.ring;

/**
 * The file is a ring of another kind than the one asked for (a many-to-one ring opened for a
 * one-to-one producer, a broadcast buffer opened as a ring, ...): its kind is fixed when it is
 * created, so the file must be opened as what it is.
 */
public final class WrongKindException extends RingException {
    private static final long serialVersionUID = 1L;

    private final RingKind found;
    private final RingKind wanted;

    /**
     * @param path the file (or how an in-memory ring is named)
     * @param found the kind the file's header says
     * @param wanted the kind the caller asked for
     */
    public WrongKindException(String path, RingKind found, RingKind wanted) {
        super("wrong-kind", path + " is a " + found.description() + " ring, not a " + wanted.description()
                + " ring; open it as " + found.description() + " (its kind is fixed when it is created)");
        this.found = found;
        this.wanted = wanted;
    }

    /** The kind the file is. */
    public RingKind found() {
        return found;
    }

    /** The kind that was asked for. */
    public RingKind wanted() {
        return wanted;
    }
}
