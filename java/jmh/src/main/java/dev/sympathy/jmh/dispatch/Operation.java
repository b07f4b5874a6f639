package dev.sympathy.jmh.dispatch;

/**
 * The seed's {@code Operation} (000, "Invoke Interface Optimisations"): one method, four
 * implementations in {@link Operations}. The seed's loop is {@code value += operation.map(value)}.
 */
public interface Operation {
    /** Maps a value; every implementation returns {@code value + c} for its constant c. */
    int map(int value);
}
