package dev.sympathy.jmh.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The dispatch closed forms against the real loops (virtual calls on the seed's operations). */
class ClosedFormTest {
    private static final Operation[] SEED = Operations.seedOrder();
    private static final PrintStream SILENT = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void shouldReadTheSeedsConstants() {
        final int[] constants = new int[SEED.length];
        for (int i = 0; i < SEED.length; i++) {
            constants[i] = Operations.constantOf(SEED[i]);
        }
        assertEquals(java.util.List.of(7, -3, 1, -1), java.util.Arrays.stream(constants).boxed().toList());
    }

    @Test
    void shouldMatchTheBenchmarkLoopsForSeededStartsCountsAndCallSites() {
        final SplittableRandom random = new SplittableRandom(4);
        for (int trial = 0; trial < 2_000; trial++) {
            final int k = new int[] {1, 2, 4}[random.nextInt(3)];
            final int start = random.nextInt();
            final int n = random.nextInt(3) == 0 ? random.nextInt(40) : random.nextInt(5_000);
            final Operation[] ops = Dispatch.cycle(SEED, k);
            final int[] constants = new int[k];
            for (int i = 0; i < k; i++) {
                constants[i] = Operations.constantOf(SEED[i]);
            }
            final int expected = ClosedForm.afterCycle(start, constants, n);
            final String where = "k=" + k + " start=" + start + " n=" + n;
            assertEquals(expected, Dispatch.monoLoop(ops, start, n), where);
            assertEquals(expected, Dispatch.biLoop(ops, start, n), where);
            assertEquals(expected, Dispatch.megaLoop(ops, start, n), where);
        }
    }

    @Test
    void shouldMatchOneOperationsLoop() {
        final SplittableRandom random = new SplittableRandom(5);
        for (int trial = 0; trial < 1_000; trial++) {
            final Operation op = SEED[random.nextInt(SEED.length)];
            final int start = random.nextInt();
            final int n = random.nextInt(100);
            int value = start;
            for (int i = 0; i < n; i++) {
                value += op.map(value);
            }
            assertEquals(value, ClosedForm.afterLoop(start, Operations.constantOf(op), n), "start=" + start + " n=" + n);
        }
    }

    @Test
    void shouldGiveTheSeedProgramsFinalValue() {
        final int[] constants = {7, -3, 1, -1};
        // from 32 steps on, one opRun maps v to -c, so runTests' value += opRun(...) subtracts c:
        // 3 loops x 10 runs x (7 - 3 + 1 - 1) = 120 below 777
        assertEquals(657, ClosedForm.stepDown(777, constants, 3, 10, 50_000_000));
        // and with short runs, against the program itself
        final DispatchStepDown program = new DispatchStepDown();
        program.iterations = 20;
        program.out = SILENT;
        program.create();
        assertEquals(ClosedForm.stepDown(777, constants, 3, 10, 20), program.stepDown());
    }

    @Test
    void shouldRefuseASecondStepDownInTheSameJvm() {
        final DispatchStepDown program = new DispatchStepDown();
        program.iterations = 10;
        program.out = SILENT;
        program.create();
        program.stepDown();
        final IllegalStateException e = assertThrows(IllegalStateException.class, program::stepDown);
        assertEquals("dispatch step-down runs once per fork (its call site is warm now): run it with no warmup"
                + " and one measurement iteration", e.getMessage());
    }

    @Test
    void shouldVerifyEveryBenchmarkInvocation() {
        final Dispatch benchmark = new Dispatch();
        benchmark.iterations = 1_000;
        benchmark.fill();
        final int[] constants = {7, -3, 1, -1};
        assertEquals(ClosedForm.afterCycle(777, new int[] {7}, 1_000), benchmark.mono());
        assertEquals(ClosedForm.afterCycle(777, new int[] {7, -3}, 1_000), benchmark.bi());
        assertEquals(ClosedForm.afterCycle(777, constants, 1_000), benchmark.mega());
    }

    @Test
    void shouldRejectAnOperationThatDoesNotAddAConstant() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Operations.constantOf(v -> v * 2));
        assertEquals(true, e.getMessage().endsWith("does not add a constant"));
    }
}
