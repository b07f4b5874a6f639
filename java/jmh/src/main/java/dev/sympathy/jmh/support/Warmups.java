package dev.sympathy.jmh.support;

/**
 * The one rule of a benchmark that needs more warm-up than its preset gives: none where the
 * preset asks for none (smoke checks the plumbing), else at least the benchmark's own minimum,
 * measured for it and said beside its minimum ({@code PingPong.MIN_WARMUP_SHOTS},
 * {@code QueueThroughput.MIN_WARMUP_ITERATIONS}, {@code Dispatch.MIN_WARMUP_ITERATIONS}).
 *
 * <pre>{@code
 * Warmups.atLeast(1, 2)  // 2
 * Warmups.atLeast(3, 2)  // 3
 * Warmups.atLeast(0, 2)  // 0
 * }</pre>
 */
public final class Warmups {
    private Warmups() {
    }

    /** {@code presetWarmups}, raised to {@code least} unless it is 0. */
    public static int atLeast(int presetWarmups, int least) {
        return presetWarmups == 0 ? 0 : Math.max(presetWarmups, least);
    }
}
