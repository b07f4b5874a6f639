package dev.sympathy.jmh.dispatch;

import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The seed's four {@link Operation}s, each {@code value + c}: {@code IncOperation} (+1),
 * {@code DecOperation} (-1), {@code StepIncOperation} (+7), {@code StepDecOperation} (-3).
 *
 * <pre>{@code
 * Operation[] ops = Operations.seedOrder();   // StepInc, StepDec, Inc, Dec, as the seed's main
 * int c = Operations.constantOf(ops[0]);      // 7
 * }</pre>
 */
public final class Operations {
    private Operations() {
    }

    /** +1. */
    static final class IncOperation implements Operation {
        @Override
        public int map(int value) {
            return value + 1;
        }
    }

    /** -1. */
    static final class DecOperation implements Operation {
        @Override
        public int map(int value) {
            return value - 1;
        }
    }

    /** +7. */
    static final class StepIncOperation implements Operation {
        @Override
        public int map(int value) {
            return value + 7;
        }
    }

    /** -3. */
    static final class StepDecOperation implements Operation {
        @Override
        public int map(int value) {
            return value - 3;
        }
    }

    /** +1, its {@code map} never inlined into a caller. */
    static final class CalledIncOperation implements Operation {
        @Override
        @CompilerControl(CompilerControl.Mode.DONT_INLINE)
        public int map(int value) {
            return value + 1;
        }
    }

    /** -1, its {@code map} never inlined into a caller. */
    static final class CalledDecOperation implements Operation {
        @Override
        @CompilerControl(CompilerControl.Mode.DONT_INLINE)
        public int map(int value) {
            return value - 1;
        }
    }

    /** +7, its {@code map} never inlined into a caller. */
    static final class CalledStepIncOperation implements Operation {
        @Override
        @CompilerControl(CompilerControl.Mode.DONT_INLINE)
        public int map(int value) {
            return value + 7;
        }
    }

    /** -3, its {@code map} never inlined into a caller. */
    static final class CalledStepDecOperation implements Operation {
        @Override
        @CompilerControl(CompilerControl.Mode.DONT_INLINE)
        public int map(int value) {
            return value - 3;
        }
    }

    /**
     * The seed's operations in its order, each kept out of line ({@code @CompilerControl(DONT_INLINE)},
     * which JMH hands to the JIT as a compile command): a call site over them makes a real call
     * however few implementations it sees, as Rust's {@code &dyn Operation} call does.
     */
    public static Operation[] seedOrderCalled() {
        return new Operation[] {new CalledStepIncOperation(), new CalledStepDecOperation(), new CalledIncOperation(),
            new CalledDecOperation()};
    }

    /** New instances in the order the seed's {@code main} creates them: StepInc, StepDec, Inc, Dec. */
    public static Operation[] seedOrder() {
        return new Operation[] {new StepIncOperation(), new StepDecOperation(), new IncOperation(), new DecOperation()};
    }

    /**
     * The constant {@code c} of {@code map(v) = v + c}.
     *
     * @throws IllegalArgumentException when the operation does not add a constant
     */
    public static int constantOf(Operation operation) {
        final int c = operation.map(0);
        for (int v : new int[] {1, -1, 777, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            if (operation.map(v) != v + c) {
                throw new IllegalArgumentException(operation.getClass().getSimpleName() + " does not add a constant");
            }
        }
        return c;
    }
}
