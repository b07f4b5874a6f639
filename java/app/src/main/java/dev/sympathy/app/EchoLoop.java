package dev.sympathy.app;

import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingFile;

/**
 * The pinging end of an echo run ({@code latency}, {@code run ipc}'s echo variants): writes
 * message {@code i} to the ping ring, spins until the echo returns it on the pong ring (verified),
 * and times the round trip with {@link System#nanoTime}.
 *
 * <p>Warm-up is what makes the timed part steady on a JVM, and it is written so that the timed
 * part runs exactly the code the warm-up ran:
 * <ul>
 *   <li>{@link #warmup}: at least {@value #MIN_WARMUP} round trips and {@value #WARMUP_LAPS} laps
 *       of the rings, so that C2 has compiled the loops of both JVMs, every page of both rings is
 *       mapped in both processes, and the wrap-around paths (padding, a new lap) have run;</li>
 *   <li>every round trip is recorded, warm-up ones too, in slot {@code i mod timed}: the last
 *       {@code timed} round trips overwrite the warm-up's. A {@code if (i >= warmup)} would be a
 *       branch the warm-up never took, which C2 compiles as an uncommon trap: the first timed
 *       round trip would deoptimize the loop back to the interpreter and recompile it, inside the
 *       timed part;</li>
 *   <li>no allocation in the loop (0 bytes per round trip): no collection can start during it.</li>
 * </ul>
 *
 * <pre>{@code
 * long warmup = EchoLoop.warmup(100_000, 262_144, 4);       // 1000000: the floor
 * long[] rtt = new long[100_000];
 * EchoLoop.run(impl, ping, pong, new MessageCheck(0), echo, new byte[4], 4, warmup, rtt);
 * }</pre>
 */
final class EchoLoop {
    /**
     * Round trips of warm-up at the least, enough for C2 to have compiled both ends' loops on a
     * 2-vCPU machine, where the compiler threads take their time from the two spinning ends. At
     * 100k, the last of the ring's C2 compilations landed inside the quick preset's timed part:
     * the round trip of one run stepped from 530 to 210 to 160 ns in its first 165k timed round
     * trips, and the p50 of one command's runs with a JVM end spread from 110 to 471 ns (100-160 ns
     * at 1M, the hop fast).
     */
    static final long MIN_WARMUP = 1_000_000;
    /** Laps of each ring in the warm-up at the least: every page mapped, the wrap-around taken. */
    static final long WARMUP_LAPS = 2;
    /** Empty polls between two looks at whether the echo process is still there. */
    private static final long LOOK_EVERY_MASK = 0xFFFFF;

    private EchoLoop() {}

    /**
     * The untimed round trips before {@code timed} timed ones of {@code size}-byte messages over
     * rings of {@code capacity} bytes: the most of a tenth of {@code timed}, {@link #MIN_WARMUP},
     * and {@link #WARMUP_LAPS} laps of a ring (the same rule as the Rust pinger's).
     *
     * <pre>{@code
     * EchoLoop.warmup(20_000_000, 262_144, 4)  // 2000000 (a tenth)
     * EchoLoop.warmup(2_000, 262_144, 4)       // 1000000 (the floor)
     * EchoLoop.warmup(2_000, 1 << 26, 4)       // 8388608 (two laps of 16-byte records)
     * }</pre>
     */
    static long warmup(long timed, long capacity, int size) {
        long recordBytes = RingDescriptor.align(size + RingDescriptor.RECORD_HEADER_LENGTH, RingDescriptor.RECORD_ALIGNMENT);
        return Math.max(Math.max(timed / 10, MIN_WARMUP), WARMUP_LAPS * capacity / recordBytes);
    }

    /**
     * Runs {@code warmup + rtt.length} round trips of {@code size}-byte messages and leaves the
     * last {@code rtt.length} round-trip times in {@code rtt} (nanoseconds, in no order).
     *
     * @throws IllegalStateException when the echo process exits before the last echo
     */
    static void run(RingImpl impl, RingFile ping, RingFile pong, MessageCheck check, Process echo, byte[] message,
            int size, long warmup, long[] rtt) {
        final long timed = rtt.length;
        final long count = warmup + timed;
        try (RingImpl.ProducerEnd producer = impl.producer(ping);
                RingImpl.ConsumerEnd consumer = impl.consumer(pong, check)) {
            Heartbeat beat = new Heartbeat(() -> {
                producer.heartbeat();
                consumer.heartbeat();
            });
            for (long i = 0; i < count; i++) {
                rtt[(int) (i % timed)] = roundTrip(producer, consumer, beat, echo, message, size, i);
            }
        }
    }

    /**
     * One timed round trip of message {@code i}: its own method, so that C2 compiles it with its
     * own profile. Inside {@link #run}'s loop, the spin of the wait (tens of polls per round trip)
     * outweighed every call made once per round trip: C2's OSR compilation of the loop found the
     * write, the message fill and its {@code Unsafe.putIntUnaligned} at a "low call site
     * frequency" and left each one a call ({@code -XX:+PrintInlining}). Here each is made once
     * per invocation and inlines as hot; the wait is {@link #awaitEcho}'s.
     */
    private static long roundTrip(RingImpl.ProducerEnd producer, RingImpl.ConsumerEnd consumer, Heartbeat beat,
            Process echo, byte[] message, int size, long i) {
        TestPattern.fill(message, i, size);
        long start = System.nanoTime();
        while (!producer.offer(1, message, size)) {
            Thread.onSpinWait();
            beat.tick();
        }
        awaitEcho(consumer, beat, echo, i);
        long elapsed = System.nanoTime() - start;
        beat.tick();
        return elapsed;
    }

    /**
     * Polls until the echo of message {@code i} is back (verified by the consumer's check), with a
     * {@link Thread#onSpinWait} (x86 {@code pause}) per empty poll, as the Rust pinger's
     * {@code spin_loop}: the two languages wait the same way.
     */
    private static void awaitEcho(RingImpl.ConsumerEnd consumer, Heartbeat beat, Process echo, long i) {
        long spins = 0;
        while (consumer.poll(1) == 0) {
            Thread.onSpinWait();
            beat.tick();
            if ((++spins & LOOK_EVERY_MASK) == 0 && !echo.isAlive()) {
                throw new IllegalStateException("the echo process exited after " + i + " messages");
            }
        }
    }
}
