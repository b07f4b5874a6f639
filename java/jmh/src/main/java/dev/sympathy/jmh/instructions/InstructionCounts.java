package dev.sympathy.jmh.instructions;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The Java side of the instruction-count gate ({@code ci/java-instructions}, docs/instruction-counts.md):
 * runs one kernel of {@link Kernels} under valgrind's callgrind so that the instructions of its
 * C2-compiled loop can be counted per message, as Rust's kernels are.
 *
 * <pre>
 * InstructionCounts --list                 every id, one a line
 * InstructionCounts ID MESSAGES [ROUNDS]   warm ID up, then count it at MESSAGES and 2 x MESSAGES, twice
 * </pre>
 *
 * <p>Every section runs the loop on a fresh input: a line
 * {@code section id=ID messages=N method=METHOD start=getpgrp counted=no|yes} on stdout, the call
 * of {@value #START_MARKER} (callgrind {@code --zero-before}), the loop, the call of
 * {@value #STOP_MARKER} (callgrind {@code --dump-before}), the check. The k-th section is
 * callgrind's dump part k; its thread is the one whose profile ran {@value #START_MARKER}.
 * Outside valgrind the two markers are two cheap system calls. In order:
 *
 * <ol>
 *   <li>two small sections, not counted: every class a section needs is loaded before the loop
 *       is compiled (see {@link #main});
 *   <li>the warm-up: the loop {@code ROUNDS} times (default {@value #WARMUP_ROUNDS}), each over
 *       {@value #WARMUP_MESSAGES} messages of a fresh input, all checked: past the tiered
 *       policy's thresholds for a C2 compilation of the loop method itself (at least 600 calls
 *       and 15000 calls plus loop turns), so that the measured calls enter C2 code, not C1's or
 *       an on-stack replacement's. Under {@code -Xbatch} each compilation finishes before the
 *       loop goes on, so the same run compiles the same code;
 *   <li>sections of {@code MESSAGES} and twice as many: {@value #PRIMING_PAIRS} pair not
 *       counted, then {@value #COUNTED_PAIRS} counted.
 * </ol>
 *
 * <p>{@code ci/java-instructions} runs it with {@code -Xbatch}, {@code -XX:+PrintCompilation}
 * (the gate checks that the loop method was compiled at level 4 before the first counted section), and
 * {@code -XX:CompileCommand=dontinline} on the loop methods (Rust's {@code #[inline(never)]}).
 */
public final class InstructionCounts {
    /** Warm-up calls of the loop. */
    static final int WARMUP_ROUNDS = 2000;
    /** Messages of each warm-up call (a kernel may ask for more: {@link Kernel#warmupMessages}). */
    static final int WARMUP_MESSAGES = 100;
    /**
     * Pairs of sections run first and not counted: the first calls of the markers link their
     * call sites (thousands of instructions once), and the second section still ran a few
     * thousand more than the later ones.
     */
    static final int PRIMING_PAIRS = 1;
    /** Pairs of sections counted: each gives one estimate, and the gate checks they agree. */
    static final int COUNTED_PAIRS = 2;
    /** The libc function called just before the measured loop: callgrind zeroes its counts there. */
    public static final String START_MARKER = "getpgrp";
    /** The libc function called just after it: callgrind dumps the counts there. */
    public static final String STOP_MARKER = "getsid";

    /** The two markers' downcalls, made on first use (not by {@code --list}). */
    private static final class Markers {
        static final MethodHandle START = libc(START_MARKER, FunctionDescriptor.of(ValueLayout.JAVA_INT));
        static final MethodHandle STOP = libc(STOP_MARKER, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

        /** A downcall to libc's {@code name} (needs {@code --enable-native-access=ALL-UNNAMED} to run without a warning). */
        @SuppressWarnings("restricted")
        private static MethodHandle libc(String name, FunctionDescriptor descriptor) {
            final Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(), descriptor);
        }
    }

    private InstructionCounts() {
    }

    /** See the class comment; exits 2 on a usage error. */
    public static void main(String[] args) throws Throwable {
        if (args.length == 1 && args[0].equals("--list")) {
            Kernels.ids().forEach(System.out::println);
            return;
        }
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: InstructionCounts --list | ID MESSAGES [ROUNDS]");
            System.exit(2);
        }
        final Kernel<?> kernel = Kernels.byId(args[0]);
        final int messages = Integer.parseInt(args[1]);
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : WARMUP_ROUNDS;
        if (messages < 1 || rounds < 0) {
            throw new IllegalArgumentException("MESSAGES must be >= 1 and ROUNDS >= 0, got " + messages + ", " + rounds);
        }
        // A pair of small sections before the warm-up: everything a section does besides the
        // loop (the markers' downcalls, printing, a collection, the check) loads its classes
        // now. Loaded later, a class (of FFM, of the VarHandles, of the buffers println uses)
        // can invalidate what C2 assumed of the class hierarchy when it compiled the loop, and
        // send the loop back to the interpreter during the sections.
        final int warmupMessages = kernel.warmupMessages();
        measure(kernel, warmupMessages, false);
        measure(kernel, 2 * warmupMessages, false);
        for (int round = 0; round < rounds; round++) {
            kernel.runChecked(warmupMessages);
        }
        for (int pair = 0; pair < PRIMING_PAIRS + COUNTED_PAIRS; pair++) {
            final boolean counted = pair >= PRIMING_PAIRS;
            measure(kernel, messages, counted);
            measure(kernel, 2 * messages, counted);
        }
    }

    /** One section: a fresh input for {@code n} messages, the loop between the markers, the check. */
    private static <S> void measure(Kernel<S> kernel, int n, boolean counted) throws Throwable {
        final S input = kernel.input(n);
        System.gc(); // the young generation empty: no collection inside the section
        System.out.println("section id=" + kernel.id() + " messages=" + n + " method=" + kernel.method()
                + " start=" + START_MARKER + " counted=" + (counted ? "yes" : "no"));
        final int started = (int) Markers.START.invokeExact();
        final long result = kernel.run(input, n);
        final int stopped = (int) Markers.STOP.invokeExact(0);
        kernel.check(input, n, result);
        if (started < 0 || stopped < 0) {
            throw new IllegalStateException("the markers " + START_MARKER + " and " + STOP_MARKER + " failed");
        }
    }
}
