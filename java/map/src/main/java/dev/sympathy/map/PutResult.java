package dev.sympathy.map;

/** What a put did (the Rust {@code Put}). */
public enum PutResult {
    /** The key was not in the map. */
    INSERTED,
    /** The key was in the map; its slot now points at the new value. */
    REPLACED
}
