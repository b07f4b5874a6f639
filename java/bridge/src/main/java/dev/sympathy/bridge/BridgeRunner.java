package dev.sympathy.bridge;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.IdleStrategy;

/**
 * Runs a bridge end's duty cycle on the calling thread until the process is asked to stop
 * (SIGTERM, SIGINT), then closes it cleanly (its ring side detaches) and prints its counters.
 */
public final class BridgeRunner {
    private BridgeRunner() {}

    /** Runs {@code end} until a shutdown signal; prints its counters every {@code statsEveryMs} (0: at exit only). */
    public static void run(BridgeEnd end, BridgeSettings.Idle idle, long statsEveryMs, PrintStream out) {
        IdleStrategy idleStrategy = BridgeNode.idleStrategy(idle);
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.set(false);
            try {
                closed.await(); // the end detaches from its ring before the JVM exits
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bridge-shutdown"));
        long nextStats = statsEveryMs > 0 ? System.currentTimeMillis() + statsEveryMs : Long.MAX_VALUE;
        try (end) {
            int turn = 0;
            while (running.get()) {
                idleStrategy.idle(end.doWork());
                if ((++turn & 255) == 0 && statsEveryMs > 0) {
                    long now = System.currentTimeMillis();
                    if (now >= nextStats) {
                        nextStats = now + statsEveryMs;
                        out.println(end.stats());
                        out.flush();
                    }
                }
            }
            out.println(end.stats());
            out.flush();
        } finally {
            closed.countDown();
        }
    }
}
