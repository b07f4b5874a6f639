package dev.sympathy.bridge;

/** A bridge end's duty cycle: {@link BridgeRunner} calls {@link #doWork} until it is stopped. */
public interface BridgeEnd extends AutoCloseable {
    /** One turn: the driver's and client's duty cycles and the end's own work; 0 when idle. */
    int doWork();

    /** The end's counters in one line. */
    String stats();

    @Override
    void close();
}
