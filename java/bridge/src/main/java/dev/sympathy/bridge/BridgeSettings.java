package dev.sympathy.bridge;

import java.nio.file.Path;

/**
 * What a bridge end is told: its ring, the two Aeron channels and their streams, and the
 * settings of its embedded media driver. docs/bridge.md says what each costs.
 */
public final class BridgeSettings {
    /** How the embedded driver and the bridge share threads. */
    public enum Threading {
        /**
         * One thread in all: the bridge's loop runs the driver's duty cycle and the client's
         * conductor itself (Aeron's {@code INVOKER} mode). Suits a small machine: on 2 cores a
         * bridge end then spins on one core at most, as a ring consumer does.
         */
        INVOKER,
        /** The driver's conductor, sender and receiver on one thread of their own, beside the bridge's. */
        SHARED,
        /** A thread each for the driver's conductor, sender and receiver: a wide machine's choice. */
        DEDICATED
    }

    /** How an idle loop waits. */
    public enum Idle {
        /** Busy-spin: the lowest latency, a whole core. */
        SPIN,
        /** Spin, then yield, then park up to 1 ms: little CPU when idle, up to a millisecond to wake. */
        BACKOFF,
        /**
         * Yield the core on every idle turn: a whole core when nothing else wants it, handed over
         * at once when something does. Where the bridge's ends share cores with busy ring ends
         * (a small machine), the lowest latency without parking.
         */
        YIELD
    }

    /** The local ring: drained by a sender, written by a receiver. */
    public Path ring;
    /** The data channel, e.g. {@code aeron:udp?endpoint=10.0.0.2:40123} or {@code aeron:ipc}. */
    public String channel;
    public int stream = 1001;
    /** The confirm channel (receiver to sender), e.g. {@code aeron:udp?endpoint=10.0.0.1:40124}. */
    public String confirmChannel;
    public int confirmStream = 1002;
    /**
     * The media driver's folder; {@code null}: one of this end's own under the temporary
     * folder, named by role and ring (so a restarted end reuses and cleans it).
     */
    public Path aeronDir;
    /** Connect to a driver already running at {@link #aeronDir} instead of embedding one. */
    public boolean externalDriver;
    public Threading threading = Threading.INVOKER;
    public Idle idle = Idle.BACKOFF;
    /** Term length of the publications (three terms per publication); max message = term / 8. */
    public int termLength = 4 << 20;
    /** Largest datagram; Aeron's default suits Ethernet's 1500 bytes. */
    public int mtu = 1408;
    /** The receiver's flow-control window (bytes in flight before the sender is held back). */
    public int window = 128 << 10;
    /** Data loss injected into this end's received datagrams (0..1): Aeron's debug loss generator. */
    public double lossRate;
    public long lossSeed = 7;
    /** How long a receiver's image may go unheard before the link counts as down (ms). */
    public long linkTimeoutMs = 2_000;
    /** Print the end's counters this often (0: only at exit). */
    public long statsEveryMs;
}
