package dev.sympathy.map;

/**
 * A record does not match its checksum (layout version 2 on): an OS crash or a power loss after
 * the map's last flush left it part-written (kind {@code corrupt-map}, as the Rust
 * {@code MapError::TornRecord}). A lookup of its key is refused, never served, until the key is
 * put again.
 */
public final class TornRecordException extends CorruptMapException {
    private static final long serialVersionUID = 1L;

    /**
     * @param path the file, or null for a map in memory
     * @param offset the record's offset in the data area
     * @param key the key the record holds
     * @param stored the checksum the record holds
     * @param computed the checksum its bytes give
     */
    public TornRecordException(String path, long offset, long key, int stored, int computed) {
        super(String.format("torn record in map%s: the record at offset %d (key %s) does not match its checksum "
                + "(stored 0x%08x, computed 0x%08x): an OS crash or a power loss after the map's last flush left it "
                + "part-written; put the key again (its value is lost), or restore the map from a copy",
                path == null ? "" : " " + path, offset, Long.toUnsignedString(key), stored, computed));
    }
}
