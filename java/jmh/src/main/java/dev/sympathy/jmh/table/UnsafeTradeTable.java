package dev.sympathy.jmh.table;

import static dev.sympathy.jmh.support.UnsafeHandles.rethrow;

import dev.sympathy.jmh.support.UnsafeHandles;
import java.lang.invoke.MethodHandle;

/**
 * {@code unsafe-flyweight}: the seed's {@code TestDirectMemoryLayout}, 42-byte records in one
 * {@code Unsafe.allocateMemory} block read and written through a flyweight.
 *
 * <p>Why method handles instead of {@code sun.misc.Unsafe} calls: naming the type makes javac
 * print "internal proprietary API" warnings that no {@code @SuppressWarnings} silences, and the
 * build runs with {@code -Xlint:all -Werror}. So the seed's Unsafe is looked up reflectively and
 * its methods bound into {@code static final} method handles, which C2 treats as constants and
 * inlines to the same intrinsics as direct calls. JDK 24+ warns at run time when Unsafe's memory
 * methods are used (JEP 471) unless the JVM runs with {@code --sun-misc-unsafe-memory-access=allow},
 * which the runner passes to the struct-table forks. {@link FfmTradeTable} is the modern
 * replacement.
 */
public final class UnsafeTradeTable implements TradeTable {
    private static final MethodHandle ALLOCATE_MEMORY = UnsafeHandles.bound("allocateMemory", long.class, long.class);
    private static final MethodHandle FREE_MEMORY = UnsafeHandles.bound("freeMemory", void.class, long.class);
    private static final MethodHandle GET_LONG = UnsafeHandles.bound("getLong", long.class, long.class);
    private static final MethodHandle PUT_LONG = UnsafeHandles.bound("putLong", void.class, long.class, long.class);
    private static final MethodHandle PUT_INT = UnsafeHandles.bound("putInt", void.class, long.class, int.class);
    private static final MethodHandle GET_CHAR = UnsafeHandles.bound("getChar", char.class, long.class);
    private static final MethodHandle PUT_CHAR = UnsafeHandles.bound("putChar", void.class, long.class, char.class);

    private final int records;
    private final Flyweight flyweight = new Flyweight();
    private long address;

    public UnsafeTradeTable(int records) {
        TradeLayout.checkRecords(records);
        this.records = records;
    }

    private Flyweight get(int index) {
        flyweight.setObjectOffset(address + (long) index * TradeLayout.RECORD_SIZE);
        return flyweight;
    }

    @Override
    public void init() {
        close();
        try {
            address = (long) ALLOCATE_MEMORY.invokeExact(nativeBytes());
        } catch (Throwable t) {
            throw rethrow(t);
        }
        final int venueCode = TradeLayout.VENUE_CODE;
        final int instrumentCode = TradeLayout.INSTRUMENT_CODE;
        for (int i = 0; i < records; i++) {
            final Flyweight trade = get(i);
            trade.setTradeId(i);
            trade.setClientId(1);
            trade.setVenueCode(venueCode);
            trade.setInstrumentCode(instrumentCode);
            trade.setPrice(i);
            trade.setQuantity(i);
            trade.setSide((i & 1) == 0 ? 'B' : 'S');
        }
    }

    @Override
    public long[] query() {
        long buyCost = 0;
        long sellCost = 0;
        for (int i = 0; i < records; i++) {
            final Flyweight trade = get(i);
            if (trade.getSide() == 'B') {
                buyCost += trade.getPrice() * trade.getQuantity();
            } else {
                sellCost += trade.getPrice() * trade.getQuantity();
            }
        }
        return new long[] {buyCost, sellCost};
    }

    @Override
    public long nativeBytes() {
        return (long) records * TradeLayout.RECORD_SIZE;
    }

    @Override
    public void close() {
        if (address != 0) {
            try {
                FREE_MEMORY.invokeExact(address);
            } catch (Throwable t) {
                throw rethrow(t);
            }
            address = 0;
        }
    }

    /** The seed's {@code DirectMemoryTrade}: an address, nothing else. */
    private static final class Flyweight {
        private long objectOffset;

        void setObjectOffset(long objectOffset) {
            this.objectOffset = objectOffset;
        }

        void setTradeId(long tradeId) {
            try {
                PUT_LONG.invokeExact(objectOffset + TradeLayout.TRADE_ID_OFFSET, tradeId);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        void setClientId(long clientId) {
            try {
                PUT_LONG.invokeExact(objectOffset + TradeLayout.CLIENT_ID_OFFSET, clientId);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        void setVenueCode(int venueCode) {
            try {
                PUT_INT.invokeExact(objectOffset + TradeLayout.VENUE_CODE_OFFSET, venueCode);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        void setInstrumentCode(int instrumentCode) {
            try {
                PUT_INT.invokeExact(objectOffset + TradeLayout.INSTRUMENT_CODE_OFFSET, instrumentCode);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        long getPrice() {
            try {
                return (long) GET_LONG.invokeExact(objectOffset + TradeLayout.PRICE_OFFSET);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        void setPrice(long price) {
            try {
                PUT_LONG.invokeExact(objectOffset + TradeLayout.PRICE_OFFSET, price);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        long getQuantity() {
            try {
                return (long) GET_LONG.invokeExact(objectOffset + TradeLayout.QUANTITY_OFFSET);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        void setQuantity(long quantity) {
            try {
                PUT_LONG.invokeExact(objectOffset + TradeLayout.QUANTITY_OFFSET, quantity);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        char getSide() {
            try {
                return (char) GET_CHAR.invokeExact(objectOffset + TradeLayout.SIDE_OFFSET);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        void setSide(char side) {
            try {
                PUT_CHAR.invokeExact(objectOffset + TradeLayout.SIDE_OFFSET, side);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }
    }
}
