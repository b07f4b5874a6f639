package dev.sympathy.jmh.dispatch;

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
