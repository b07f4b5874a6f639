package dev.sympathy.jmh.table;

/**
 * One trade table of the seed's struct-table experiment: filled by {@link #init}, queried by
 * {@link #query}, freed by {@link #close}. The three implementations share the seed's usage code
 * shape: {@code get(i)} then getters.
 */
public interface TradeTable extends AutoCloseable {
    /** Fills {@code records} trades as the seed's {@code init()} does. */
    void init();

    /** Returns {@code {buyCost, sellCost}} as the seed's {@code perfRun} computes them. */
    long[] query();

    /** Native bytes this table allocated: none for a table on the heap. */
    default long nativeBytes() {
        return 0;
    }

    /** Frees native memory; the table is unusable afterwards. */
    @Override
    void close();
}
