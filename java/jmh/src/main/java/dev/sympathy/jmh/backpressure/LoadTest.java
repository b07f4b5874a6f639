package dev.sympathy.jmh.backpressure;

import dev.sympathy.jmh.support.Pinning;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * One back-pressure run (seed 000, "Applying Back Pressure When Overloaded"): an open-loop
 * generator offers {@code count} requests to a {@link RequestQueue} in front of a pool of worker
 * threads that busy-spin a fixed service time per request.
 *
 * <ul>
 *   <li>Open loop: request i is scheduled at {@code t0 + i / arrival_per_sec}; the generator
 *       waits for that time (or goes at once when late) and never for a worker. A request's
 *       latency is its completion time minus its <em>scheduled</em> arrival, so a late generator
 *       or a stalled worker shows in the latency (no coordinated omission).</li>
 *   <li>A request's time <em>in the system</em> runs from its admission (the moment the
 *       generator offered it and the queue accepted it) to its completion. It leaves out how late
 *       the generator was (descheduled, or a GC or JIT pause in the generator thread): that is not
 *       the queue's doing.</li>
 *   <li>{@code unbounded}: every request is queued. {@code bounded}: at most {@code queue_len}
 *       requests in the system, sized by Little's law, {@code queue_len = max_latency /
 *       (service_time / workers)}; a request arriving when it is full is rejected ("busy"),
 *       counted, and not queued.</li>
 *   <li>Checks ({@link Outcome#check}): completed + rejected == generated, and for
 *       {@code bounded} the p99 time in the system &lt;= max_latency + one service time: the
 *       queue's promise for a request it admitted (at most {@code queue_len - 1} ahead of it,
 *       one of them in service).</li>
 * </ul>
 *
 * <pre>{@code
 * LoadTest.Config config = LoadTest.Config.of(true, 1.2, 10_000, 1, 1_000_000, 100_000);
 * LoadTest.Outcome outcome = LoadTest.run(config, true).check(config);
 * long p99 = outcome.p99Ns();                  // from the scheduled arrival: reported
 * long inSystem = outcome.inSystemP99Ns();     // from admission: checked against config.boundNs()
 * }</pre>
 */
public final class LoadTest {
    private LoadTest() {
    }

    /**
     * A run's settings.
     *
     * @param bounded {@code bounded} (reject when full) or {@code unbounded}
     * @param load offered load as a fraction of capacity ({@code workers / service time})
     * @param serviceNs busy-spin time per request
     * @param workers worker threads
     * @param maxLatencyNs the latency the bounded queue is sized for
     * @param count requests generated
     */
    public record Config(boolean bounded, double load, long serviceNs, int workers, long maxLatencyNs, int count) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            if (!(load > 0 && load <= 1000) || serviceNs < 1 || workers < 1 || maxLatencyNs < serviceNs
                    || count < 1 || count > 1 << 30) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "back-pressure: invalid settings"
                        + " load=%s service_ns=%d workers=%d max_latency_ns=%d count=%d (need 0 < load <= 1000,"
                        + " service_ns >= 1, workers >= 1, max_latency_ns >= service_ns, 1 <= count <= 2^30)",
                        load, serviceNs, workers, maxLatencyNs, count));
            }
        }

        /** Same as the canonical constructor. */
        public static Config of(boolean bounded, double load, long serviceNs, int workers, long maxLatencyNs, int count) {
            return new Config(bounded, load, serviceNs, workers, maxLatencyNs, count);
        }

        /** Requests the workers can serve per second: workers / service time. */
        public double capacityPerSec() {
            return workers * 1e9 / serviceNs;
        }

        /** The generator's rate: load x capacity, rounded, at least 1. */
        public long arrivalPerSec() {
            return Math.max(1, Math.round(load * capacityPerSec()));
        }

        /** Little's law: max_latency / (service_time / workers), at least 1. */
        public int queueLen() {
            return (int) Math.max(1, Math.min(1 << 30, maxLatencyNs * workers / serviceNs));
        }

        /** What the bounded system's p99 time in the system must not exceed: max_latency + one service time. */
        public long boundNs() {
            return maxLatencyNs + serviceNs;
        }

        /**
         * What the check accepts: {@link #boundNs()} plus 5%, for the worker's clock reads and a
         * virtual machine's occasional vCPU stalls (the Rust side's {@code BOUND_TOLERANCE_PERCENT}).
         */
        public long checkedBoundNs() {
            return boundNs() + boundNs() * 5 / 100;
        }

        /** {@code "bounded"} or {@code "unbounded"}. */
        public String variant() {
            return bounded ? "bounded" : "unbounded";
        }
    }

    /**
     * The bounded system missed its latency bound: the generator or a worker lost its core to
     * another process. An environmental failure: the runner exits 75 and {@code sympathy compare}
     * runs it again (docs/results.md); lost requests stay a plain {@link IllegalStateException}.
     */
    public static final class BoundMissedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        /** @param message what was measured against which bound */
        public BoundMissedException(String message) {
            super(message);
        }
    }

    /**
     * What a run did; latencies in ns over completed requests (nearest-rank percentiles).
     *
     * @param p50Ns median latency from the scheduled arrival
     * @param p99Ns 99th percentile latency from the scheduled arrival
     * @param maxNs worst latency from the scheduled arrival
     * @param inSystemP99Ns 99th percentile time in the system, admission to completion (what the bound checks)
     * @param generatorLateNs how late the generator offered a request, at worst (admission minus schedule)
     */
    public record Outcome(int generated, int completed, int rejected, long p50Ns, long p99Ns, long maxNs,
            long inSystemP99Ns, long generatorLateNs) {
        /**
         * The outcome of the given per-request times (any order; the arrays are sorted in place).
         *
         * @param latencies completed requests' latencies from their scheduled arrival
         * @param inSystem the same requests' times in the system, admission to completion
         * @throws IllegalArgumentException when the arrays' lengths differ
         */
        static Outcome of(int generated, int rejected, long[] latencies, long[] inSystem, long generatorLateNs) {
            if (latencies.length != inSystem.length) {
                throw new IllegalArgumentException("back-pressure: " + latencies.length + " latencies but "
                        + inSystem.length + " times in the system");
            }
            Arrays.sort(latencies);
            Arrays.sort(inSystem);
            final int completed = latencies.length;
            return new Outcome(generated, completed, rejected, percentile(latencies, 0.50),
                    percentile(latencies, 0.99), completed == 0 ? 0 : latencies[completed - 1],
                    percentile(inSystem, 0.99), generatorLateNs);
        }

        /**
         * Checks the accounting and, for a bounded run, the latency bound.
         *
         * @return this
         * @throws IllegalStateException when a check fails
         */
        public Outcome check(Config config) {
            return check(config, true);
        }

        /**
         * Checks the accounting and, when {@code enforceBound} and the run is bounded, the latency
         * bound: the p99 time in the system (admission to completion), not the latency from the
         * scheduled arrival, which also holds the generator's lateness.
         *
         * @return this
         * @throws IllegalStateException when the accounting fails
         * @throws BoundMissedException when the bound is missed (the machine was busy)
         */
        public Outcome check(Config config, boolean enforceBound) {
            if ((long) completed + rejected != generated) {
                throw new IllegalStateException(String.format(Locale.ROOT, "back-pressure %s load=%s: completed %d +"
                        + " rejected %d != generated %d", config.variant(), config.load(), completed, rejected, generated));
            }
            if (enforceBound && config.bounded() && inSystemP99Ns > config.checkedBoundNs()) {
                throw new BoundMissedException(String.format(Locale.ROOT, "back-pressure bounded load=%s: p99 time in"
                        + " the system (admission to completion) %d ns exceeds the bound %d ns (max_latency %d + one"
                        + " service time %d, + 5%%); p99 latency from the scheduled arrival %d ns, the generator up to %d ns"
                        + " late: the bounded system missed its bound, probably because the machine is overloaded"
                        + " (another process took a worker's core); no result is reported", config.load(),
                        inSystemP99Ns, config.checkedBoundNs(), config.maxLatencyNs(), config.serviceNs(), p99Ns,
                        generatorLateNs));
            }
            return this;
        }
    }

    /**
     * Runs the generator on the calling thread and the workers on new threads, until every
     * accepted request is served. With {@code pin}, worker w is pinned to core {@code 1 + w}
     * (core 0 when there is one core; the caller pins the generator itself).
     */
    public static Outcome run(Config config, boolean pin) throws InterruptedException {
        final long[] admitted = new long[config.count()];
        final RequestQueue queue = config.bounded()
                ? RequestQueue.bounded(config.queueLen()) : RequestQueue.unbounded(config.count());
        final long arrival = config.arrivalPerSec();
        final CountDownLatch ready = new CountDownLatch(config.workers());
        final Worker[] workers = new Worker[config.workers()];
        final int cores = Pinning.processCores();
        for (int w = 0; w < workers.length; w++) {
            final int core = cores > 1 ? 1 + w % (cores - 1) : 0;
            workers[w] = new Worker(queue, admitted, config, pin ? core : -1, ready);
            workers[w].start();
        }
        ready.await();
        final long t0 = System.nanoTime() + 100_000; // a little room for the workers to start polling
        for (Worker worker : workers) {
            worker.t0 = t0;
        }
        Worker.publish(workers);

        int rejected = 0;
        long late = 0;
        for (int i = 0; i < config.count(); i++) {
            final long scheduled = t0 + (long) i * 1_000_000_000L / arrival;
            long now = System.nanoTime();
            while (now < scheduled) {
                Thread.onSpinWait();
                now = System.nanoTime();
            }
            late = Math.max(late, now - scheduled);
            // The admission time, taken just before the offer (so never after the queue took the
            // request); published to the worker by offer()'s release of tail (SYNC POINT tail).
            admitted[i] = now;
            if (!queue.offer(i)) {
                rejected++;
            }
        }
        for (Worker worker : workers) {
            worker.generatorDone = true;
        }
        int completed = 0;
        for (Worker worker : workers) {
            worker.join();
            if (worker.failure != null) {
                throw new IllegalStateException("back-pressure: a worker failed: " + worker.failure, worker.failure);
            }
            completed += worker.served;
        }
        final long[] latencies = new long[completed];
        final long[] inSystem = new long[completed];
        int at = 0;
        for (Worker worker : workers) {
            System.arraycopy(worker.latencies, 0, latencies, at, worker.served);
            System.arraycopy(worker.inSystem, 0, inSystem, at, worker.served);
            at += worker.served;
        }
        return Outcome.of(config.count(), rejected, latencies, inSystem, late);
    }

    /** Nearest rank: the smallest value with at least fraction p of the values at or below it; 0 when empty. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        final int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /**
     * One worker: polls, spins the service time on a continuous service clock, records the
     * latency and time in the system, frees the place.
     */
    private static final class Worker extends Thread {
        private final RequestQueue queue;
        /** Admission times by request id, written by the generator before its offer. */
        private final long[] admitted;
        private final long serviceNs;
        private final long arrival;
        private final int core;
        private final CountDownLatch ready;
        private final long[] latencies;
        private final long[] inSystem;
        /** Start of the schedule; set before {@link #publish}, read after it. */
        long t0;
        volatile boolean started;
        volatile boolean generatorDone;
        int served;
        Throwable failure;

        Worker(RequestQueue queue, long[] admitted, Config config, int core, CountDownLatch ready) {
            super("back-pressure-worker");
            setDaemon(true);
            this.queue = queue;
            this.admitted = admitted;
            this.serviceNs = config.serviceNs();
            this.arrival = config.arrivalPerSec();
            this.core = core;
            this.ready = ready;
            this.latencies = new long[config.count()];
            this.inSystem = new long[config.count()];
        }

        /** Hands t0 over: the volatile write pairs with the worker's volatile read of {@code started}. */
        static void publish(Worker[] workers) {
            for (Worker worker : workers) {
                worker.started = true;
            }
        }

        @Override
        public void run() {
            try {
                if (core >= 0) {
                    Pinning.pinToAvailable(core);
                }
                ready.countDown();
                while (!started) {
                    Thread.onSpinWait();
                }
                final long t0 = this.t0;
                final RequestQueue queue = this.queue;
                int served = 0;
                // The end of the last service on a continuous clock (as the Rust worker): a
                // request admitted while the worker was busy starts where the last one ended, so
                // the loop's own cost (poll, clock reads, spin overshoot) does not add up request
                // after request; an idle worker starts the request now.
                long freeAt = 0; // meaningful once served > 0
                while (true) {
                    final boolean finishing = generatorDone;
                    final int id = queue.poll();
                    if (id < 0) {
                        if (finishing) {
                            break;
                        }
                        Thread.onSpinWait();
                        continue;
                    }
                    final long now = System.nanoTime();
                    final long begin = served > 0 && admitted[id] - freeAt <= 0 ? freeAt : now;
                    final long due = begin + serviceNs;
                    long end = now;
                    while (end - due < 0) {
                        Thread.onSpinWait();
                        end = System.nanoTime();
                    }
                    freeAt = due;
                    latencies[served] = end - (t0 + (long) id * 1_000_000_000L / arrival);
                    // admitted[id] was written before offer(id); poll()'s acquire of tail made it visible
                    inSystem[served++] = end - admitted[id];
                    queue.done();
                }
                this.served = served;
            } catch (Throwable t) {
                failure = t;
                ready.countDown();
            }
        }
    }
}
