package dev.sympathy.ring;

/** A capacity that is not a power of two in the accepted range. */
public final class CapacityNotPowerOfTwoException extends RingException {
    private static final long serialVersionUID = 1L;

    private final long capacity;

    public CapacityNotPowerOfTwoException(long capacity) {
        super("bad-capacity", "capacity " + capacity + " is not a power of two between " + RingDescriptor.MIN_CAPACITY
                + " and " + RingDescriptor.MAX_CAPACITY + " bytes (try e.g. 1048576)");
        this.capacity = capacity;
    }

    /** The refused capacity. */
    public long capacity() {
        return capacity;
    }
}
