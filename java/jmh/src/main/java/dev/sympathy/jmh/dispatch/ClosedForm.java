package dev.sympathy.jmh.dispatch;

/**
 * The value the dispatch loops must end with, without running them. One step of the seed's loop
 * {@code value += operation.map(value)} with {@code map(v) = v + c} is {@code v -> 2v + c}
 * (int arithmetic, mod 2^32), so after n steps with constants c_0 .. c_{n-1}:
 * <pre>
 *   v_n = 2^n v_0 + sum over i of c_i 2^(n-1-i)   (mod 2^32)
 * </pre>
 * Powers of two from 2^32 on vanish mod 2^32, so only the last 32 steps (and v_0 only while
 * n &lt; 32) matter: the closed form costs at most 32 terms whatever n is.
 *
 * <pre>{@code
 * ClosedForm.afterLoop(777, 1, 3);                // 2^3 * 777 + 1 * (2^3 - 1) = 6223
 * ClosedForm.afterCycle(777, new int[] {7, -3}, 50_000_000);
 * }</pre>
 */
public final class ClosedForm {
    private ClosedForm() {
    }

    /** 2^n mod 2^32 as an int (0 from n = 32 on). */
    static int pow2(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("step count must be >= 0, got " + n);
        }
        return n >= Integer.SIZE ? 0 : 1 << n;
    }

    /** The value after n steps of one operation with constant c from v: the seed's {@code opRun}. */
    public static int afterLoop(int v, int c, long n) {
        final int p = pow2(n);
        return p * v + c * (p - 1);
    }

    /**
     * The value after n steps from v where step i uses constant {@code constants[i % k]}: the
     * mono/bi/mega benchmarks' loop over a call-site array filled cyclically.
     */
    public static int afterCycle(int v, int[] constants, long n) {
        int sum = pow2(n) * v;
        for (long i = Math.max(0, n - Integer.SIZE); i < n; i++) {
            sum += constants[(int) (i % constants.length)] * pow2(n - 1 - i);
        }
        return sum;
    }

    /**
     * The final value of the seed's {@code main}: {@code loops} passes over the operations (constants
     * in order), each running {@code runTests}: {@code runs} times {@code value += opRun(op, value)}
     * of {@code iterations} steps.
     */
    public static int stepDown(int v, int[] constants, int loops, int runs, long iterations) {
        int value = v;
        for (int loop = 0; loop < loops; loop++) {
            for (int c : constants) {
                for (int r = 0; r < runs; r++) {
                    value += afterLoop(value, c, iterations);
                }
            }
        }
        return value;
    }
}
