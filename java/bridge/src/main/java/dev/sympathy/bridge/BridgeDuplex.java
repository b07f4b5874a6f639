package dev.sympathy.bridge;

import java.io.IOException;

/**
 * A sender and a receiver on one driver and one thread: both directions of a host's link in
 * one process (a request/response pair of rings, a round trip), where two single ends would
 * take two processes and two drivers.
 *
 * <pre>{@code
 * // host A: out.ring -> host B, and what host B sends -> in.ring
 * try (BridgeDuplex duplex = BridgeDuplex.open(outSettings, inSettings)) {
 *     while (running) idle.idle(duplex.doWork());
 * }
 * }</pre>
 */
public final class BridgeDuplex implements BridgeEnd {
    private final BridgeNode node;
    private final BridgeSender sender;
    private final BridgeReceiver receiver;

    private BridgeDuplex(BridgeNode node, BridgeSender sender, BridgeReceiver receiver) {
        this.node = node;
        this.sender = sender;
        this.receiver = receiver;
    }

    /**
     * Starts the driver (with {@code send}'s engine settings) and both ends on it.
     *
     * @param send the sending direction: its ring, channel, streams and the engine settings
     * @param receive the receiving direction: its ring, channel and streams (its engine settings
     *     are {@code send}'s)
     */
    public static BridgeDuplex open(BridgeSettings send, BridgeSettings receive) throws IOException {
        BridgeNode node = new BridgeNode(send, "duplex");
        BridgeSender sender = null;
        try {
            sender = BridgeSender.open(send, node);
            BridgeReceiver receiver = BridgeReceiver.open(receive, node);
            return new BridgeDuplex(node, sender, receiver);
        } catch (IOException | RuntimeException e) {
            if (sender != null) {
                sender.close();
            }
            node.close();
            throw e;
        }
    }

    @Override
    public int doWork() {
        return node.invoke() + sender.doWork() + receiver.doWork();
    }

    @Override
    public String stats() {
        return sender.stats() + "; " + receiver.stats();
    }

    @Override
    public void close() {
        try {
            sender.close();
            receiver.close();
        } finally {
            node.close();
        }
    }
}
