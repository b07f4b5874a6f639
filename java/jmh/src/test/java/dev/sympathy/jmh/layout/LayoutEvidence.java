package dev.sympathy.jmh.layout;

import dev.sympathy.jmh.queue.Queues;
import dev.sympathy.jmh.serialization.Order;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.info.GraphPathRecord;
import org.openjdk.jol.vm.VM;

/**
 * Layout evidence for docs/java-performance.md, with JOL: the field layout of the queue
 * benchmark's classes (the Java {@code p1c1} queue, JCTools' padded {@code SpscArrayQueue},
 * JMH's generated state classes) and where a queue's objects land in the heap, before and after a
 * full GC moves them: which 64-byte lines and 128-byte line pairs (the adjacent-line
 * prefetcher's unit) each object's header, first and last element fall in, and the gap to the
 * next object; and the footprint of one serialization {@code Order}, which every codec's read
 * allocates by contract.
 *
 * <pre>
 * ci/java-profile --layout          # builds the test classpath and runs this
 * java -cp &lt;test classpath&gt; dev.sympathy.jmh.layout.LayoutEvidence [variant ...]
 * </pre>
 */
public final class LayoutEvidence {
    /** The classes whose field layout is printed, by name (JMH's generated ones included). */
    static final String[] CLASSES = {
        "dev.sympathy.jmh.queue.P1C1IntQueue",
        "org.jctools.queues.SpscArrayQueue",
        "dev.sympathy.jmh.queue.jmh_generated.QueueThroughput_jmhType",
        "dev.sympathy.jmh.queue.jmh_generated.QueueThroughput_OfferCounters_jmhType",
        "dev.sympathy.jmh.queue.jmh_generated.QueueThroughput_PollCounters_jmhType",
    };
    /** The queue variants whose heap placement is printed when none are named. */
    static final String[] VARIANTS = {"p1c1", "jctools-spsc"};
    /** The benchmark's capacity. */
    static final int CAPACITY = 32768;

    private LayoutEvidence() {
    }

    public static void main(String[] args) throws ClassNotFoundException {
        report(System.out, args.length == 0 ? VARIANTS : args);
    }

    /** Prints the whole report for the given queue variants. */
    static void report(PrintStream out, String... variants) throws ClassNotFoundException {
        out.println("## VM");
        out.println(VM.current().details());
        for (String name : CLASSES) {
            out.println("## class " + name);
            out.println(ClassLayout.parseClass(Class.forName(name)).toPrintable());
        }
        final List<Object> queues = new ArrayList<>();
        for (String variant : variants) {
            final Object queue = Queues.create(variant, CAPACITY);
            queues.add(queue);
            out.println("## heap placement of " + variant + " (capacity " + CAPACITY + "), as allocated");
            out.println(placement(queue));
        }
        out.println("## footprint of one decoded serialization Order (what a codec's read allocates)");
        out.println(GraphLayout.parseInstance(Order.random(new SplittableRandom(9))).toFootprint());
        System.gc();
        for (int i = 0; i < variants.length; i++) {
            out.println("## heap placement of " + variants[i] + " after System.gc() moved it");
            out.println(placement(queues.get(i)));
        }
    }

    /**
     * One line per object reachable from {@code root}, in address order: address, size, the
     * 64-byte line and 128-byte pair of its start, of its first element (arrays: the element
     * after the 16-byte header) and of its last byte, the gap to the next object, and its path.
     */
    static String placement(Object root) {
        final GraphLayout graph = GraphLayout.parseInstance(root);
        final long base = graph.startAddress() & ~127L;
        final StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%-18s %8s %-14s %-14s %-14s %8s  %s%n", "address", "size", "start line/pair",
                "data line/pair", "end line/pair", "gap", "type path"));
        final List<Long> addresses = new ArrayList<>(graph.addresses());
        for (int i = 0; i < addresses.size(); i++) {
            final long address = addresses.get(i);
            final GraphPathRecord record = graph.record(address);
            final long end = address + record.size();
            final long data = record.klass().isArray() ? address + VM.current().arrayBaseOffset(
                    record.klass().getComponentType().getName()) : address;
            final String gap = i + 1 < addresses.size() ? Long.toString(addresses.get(i + 1) - end) : "-";
            text.append(String.format(Locale.ROOT, "0x%016x %8d %-14s %-14s %-14s %8s  %s %s%n",
                    address, record.size(), lines(address - base), lines(data - base),
                    lines(end - 1 - base), gap, record.klass().getSimpleName(),
                    record.path().isEmpty() ? "(root)" : record.path()));
        }
        return text.toString();
    }

    /** "L/P": the 64-byte line and the 128-byte pair of an offset from the graph's first pair. */
    private static String lines(long offset) {
        return (offset >> 6) + "/" + (offset >> 7);
    }
}
