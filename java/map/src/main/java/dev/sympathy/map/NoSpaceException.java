package dev.sympathy.map;

/** The filesystem cannot hold the map file (found when its blocks are reserved) (kind {@code no-space}). */
public final class NoSpaceException extends MapException {
    private static final long serialVersionUID = 1L;

    public NoSpaceException(String path, String filesystem, long available, long needed) {
        super("no-space", path + ": not enough space for the map file: it needs " + needed + " bytes and " + filesystem + " has " + available + " bytes free; create the map on a filesystem with room for it (`df` lists them) or with fewer slots or a smaller data area");
    }
}
