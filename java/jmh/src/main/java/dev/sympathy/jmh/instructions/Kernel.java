package dev.sympathy.jmh.instructions;

import java.util.function.IntFunction;

/**
 * One measured hot path of {@link InstructionCounts}: an input made for {@code n} messages (not
 * measured), the loop that runs the hot path once per message (measured: a {@code static} method
 * of {@link Kernels}, named by {@link #method()}, that the counting JVM keeps from being inlined
 * into its caller, as Rust's kernels are {@code #[inline(never)]}), and a check of the loop's
 * result.
 *
 * <pre>{@code
 * Kernel<?> kernel = Kernels.byId("queue/offer/u32");
 * kernel.runChecked(1000); // a fresh input, the loop over 1000 messages, the check
 * }</pre>
 *
 * @param <S> the input: a ring, a queue, a codec
 */
public final class Kernel<S> {
    /** What the loop does with an input and a message count; returns what the check reads. */
    @FunctionalInterface
    public interface Loop<S> {
        /** Runs the hot path {@code n} times over {@code input}. */
        long run(S input, int n);
    }

    /** What a correct run of {@code n} messages returned, or throws. */
    @FunctionalInterface
    public interface Check<S> {
        /** @throws IllegalStateException when {@code result} is not what {@code n} messages give */
        void check(S input, int n, long result);
    }

    private final String id;
    private final String method;
    private final IntFunction<S> input;
    private final Loop<S> loop;
    private final Check<S> check;
    private int warmupMessages = InstructionCounts.WARMUP_MESSAGES;

    Kernel(String id, String method, IntFunction<S> input, Loop<S> loop, Check<S> check) {
        this.id = id;
        this.method = method;
        this.input = input;
        this.loop = loop;
        this.check = check;
    }

    /**
     * This kernel, warmed up over {@code messages} per call instead of
     * {@value InstructionCounts#WARMUP_MESSAGES}: a loop that makes one call per batch of
     * {@code 256} takes one trip per call at the default, too few for the JIT's back-edge counters
     * to reach C2 within the warm-up's calls.
     */
    Kernel<S> warmingUpOver(int messages) {
        warmupMessages = messages;
        return this;
    }

    /** Messages of each warm-up call. */
    public int warmupMessages() {
        return warmupMessages;
    }

    /** The id, {@code group/op/param}, as Rust's gate names its twin. */
    public String id() {
        return id;
    }

    /**
     * The measured method as {@code -XX:+PrintCompilation} names it
     * ({@code dev.sympathy.jmh.instructions.Kernels::ringWrite}).
     */
    public String method() {
        return method;
    }

    /** A fresh input for {@code n} messages. */
    public S input(int n) {
        return input.apply(n);
    }

    /** The loop over {@code n} messages of {@code input}. */
    public long run(S input, int n) {
        return loop.run(input, n);
    }

    /** @throws IllegalStateException when {@code result} is not what {@code n} messages give */
    public void check(S input, int n, long result) {
        check.check(input, n, result);
    }

    /** A fresh input, the loop over {@code n} messages, the check; returns the loop's result. */
    public long runChecked(int n) {
        final S in = input(n);
        final long result = run(in, n);
        check(in, n, result);
        return result;
    }
}
