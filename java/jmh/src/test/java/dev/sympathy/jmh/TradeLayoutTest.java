package dev.sympathy.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sympathy.jmh.table.BoxedTradeTable;
import dev.sympathy.jmh.table.FfmTradeTable;
import dev.sympathy.jmh.table.SoaTradeTable;
import dev.sympathy.jmh.table.TradeLayout;
import dev.sympathy.jmh.table.TradeTable;
import dev.sympathy.jmh.table.UnsafeTradeTable;
import org.junit.jupiter.api.Test;

/** The trade table's closed form and its four implementations. */
class TradeLayoutTest {
    /** The seed's loop, wrapped in 64 bits as the seed's long arithmetic does. */
    private static long[] bruteForce(int records) {
        long buy = 0;
        long sell = 0;
        for (long i = 0; i < records; i++) {
            if ((i & 1) == 0) {
                buy += i * i;
            } else {
                sell += i * i;
            }
        }
        return new long[] {buy, sell};
    }

    @Test
    void shouldMatchTheSeedsLoopIncludingOverflow() {
        for (int records : new int[] {1, 2, 3, 10, 1001, 4_000_000}) {
            assertArrayEquals(bruteForce(records),
                    new long[] {TradeLayout.expectedBuyCost(records), TradeLayout.expectedSellCost(records)},
                    "records " + records);
        }
        // 50M records overflows 64 bits (sum of squares ~ 4e22): the closed form still wraps like the seed
        assertArrayEquals(bruteForce(50_000_000),
                new long[] {TradeLayout.expectedBuyCost(50_000_000), TradeLayout.expectedSellCost(50_000_000)});
    }

    @Test
    void shouldPackFieldsInto42Bytes() {
        assertEquals(42, TradeLayout.RECORD_SIZE);
        assertEquals(TradeLayout.SIDE_OFFSET + Character.BYTES, TradeLayout.RECORD_SIZE);
        assertEquals(0x584C4F4E, TradeLayout.VENUE_CODE); // "XLON"
    }

    @Test
    void shouldQueryTheSameCostsFromEveryTable() {
        final int records = 1_003;
        for (TradeTable table : new TradeTable[] {
            new BoxedTradeTable(records), new UnsafeTradeTable(records), new FfmTradeTable(records),
            new SoaTradeTable(records)}) {
            try (table) {
                table.init();
                assertArrayEquals(bruteForce(records), table.query(), table.getClass().getSimpleName());
            }
        }
    }
}
