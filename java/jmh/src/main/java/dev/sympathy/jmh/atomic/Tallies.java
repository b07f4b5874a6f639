package dev.sympathy.jmh.atomic;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * The increments each benchmark thread says it made in one iteration, so that the last thread
 * to report can compare their sum with the shared counter.
 *
 * <p>The sum is read only after the last report is counted: every thread adds its tally
 * <em>before</em> it counts itself as reported, so the thread that counts last sees every
 * tally. (Returning the value of its own {@code addAndGet} instead would miss a thread that
 * added after it but counted itself before it: the counter then looks about twice the sum.)
 *
 * <pre>{@code
 * Tallies tallies = new Tallies();
 * // in each of 2 threads, at the end of an iteration:
 * OptionalLong sum = tallies.report(thread, made, 2);
 * sum.ifPresent(s -> check(counter == s)); // present for exactly one thread
 * }</pre>
 */
final class Tallies {
    private final AtomicLong sum = new AtomicLong();
    private final AtomicLong handoffs = new AtomicLong();
    private final AtomicInteger reported = new AtomicInteger();
    private final Map<Integer, Long> byThread = new ConcurrentHashMap<>();
    /** Runs between a thread's add and its count (tests use it to force an interleaving). */
    private final IntConsumer betweenAddAndCount;

    Tallies() {
        this(thread -> { });
    }

    /** For tests: {@code betweenAddAndCount} gets the reporting thread's index. */
    Tallies(IntConsumer betweenAddAndCount) {
        this.betweenAddAndCount = betweenAddAndCount;
    }

    /** Forgets every report (at the start of an iteration, before any thread runs). */
    void reset() {
        sum.set(0);
        handoffs.set(0);
        reported.set(0);
        byThread.clear();
    }

    /**
     * Records one thread's increments.
     *
     * @param thread the thread's index
     * @param made the increments it made
     * @param threads how many threads report in this iteration
     * @return the sum of every thread's increments for the last thread to report; -1 for the others
     */
    long report(int thread, long made, int threads) {
        return report(thread, made, 0, threads);
    }

    /**
     * Records one thread's increments and its handoffs (the times the value it got back was not
     * the one after its previous increment: another thread had taken the line in between).
     *
     * @return the sum of every thread's increments for the last thread to report; -1 for the others
     */
    long report(int thread, long made, long handedOff, int threads) {
        byThread.put(thread, made);
        handoffs.addAndGet(handedOff);
        sum.addAndGet(made);
        betweenAddAndCount.accept(thread);
        if (reported.incrementAndGet() != threads) {
            return -1;
        }
        return sum.get();
    }

    /** Every thread's handoffs together (complete once the last report is in). */
    long handoffs() {
        return handoffs.get();
    }

    /** Each thread's increments by thread index (complete once the last report is in). */
    Map<Integer, Long> byThread() {
        return new TreeMap<>(byThread);
    }
}
