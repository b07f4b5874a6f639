package dev.sympathy.map;

/** The file's length is not the one its header implies (kind {@code file-length}). */
public final class FileLengthException extends MapException {
    private static final long serialVersionUID = 1L;

    public FileLengthException(String path, long actual, long expected) {
        super("file-length", path + ": the file is " + actual + " bytes but its header implies " + expected + " (4096 + 8 x slots + data capacity); the file was cut or extended: restore it from a copy or rebuild the map");
    }
}
