package dev.sympathy.map;

/** A create was asked for a size the layout cannot have (kind {@code bad-config}). */
public final class BadConfigException extends MapException {
    private static final long serialVersionUID = 1L;

    public BadConfigException(String what) {
        super("bad-config", what);
    }
}
