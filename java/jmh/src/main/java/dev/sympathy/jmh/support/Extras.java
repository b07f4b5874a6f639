package dev.sympathy.jmh.support;

import dev.sympathy.results.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * Measurements a benchmark takes beside JMH's own score (init and query time of one run, bytes
 * per record, GC pause, per-thread shares), written as one JSON line per measured iteration to
 * the file named by the system property {@value #PROPERTY}. The runner passes that property to
 * each fork and folds the lines into results ({@code dev.sympathy.jmh.runner.Converter}).
 *
 * <p>Without the property (a plain {@code java -jar benchmarks.jar} run) nothing is written.
 *
 * <pre>{@code
 * Extras.record("struct-table", "boxed", Map.of("records", 1000), "init_ms", "ms", 12.5, "ok");
 * }</pre>
 */
public final class Extras {
    /** System property holding the path of the extras file. */
    public static final String PROPERTY = "sympathy.extras";

    private Extras() {
    }

    /**
     * Says that a run failed because the machine was busy (its own check failed because another
     * process took its cores): appends {@code reason} to the file {@link #busyFile} of the extras
     * file, where the runner looks for it after JMH ends and exits 75.
     */
    public static synchronized void machineBusy(String reason) {
        final String path = System.getProperty(PROPERTY);
        if (path == null) {
            return;
        }
        final Path busy = busyFile(Path.of(path));
        try {
            Files.writeString(busy, reason + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + busy, e);
        }
    }

    /** The file beside {@code extras} that {@link #machineBusy} writes: {@code <extras>.busy}. */
    public static Path busyFile(Path extras) {
        return extras.resolveSibling(extras.getFileName() + ".busy");
    }

    /**
     * Appends a parity fact of every result of this run (docs/results.md: {@code pinned}, ...),
     * such as one the fork measured about itself; the runner folds each fact into the results'
     * {@code parity} objects ({@code dev.sympathy.jmh.runner.Facts}).
     */
    public static void fact(String name, Object value) {
        append(Json.write(Map.of("fact", name, "value", value)) + "\n");
    }

    /**
     * Appends a parity fact of the results of one variant of an experiment (its inputs, what its
     * timer holds, its slot width), as the benchmark that does that work knows it.
     */
    public static void fact(String experiment, String variant, String name, Object value) {
        append(Json.write(Map.of("fact", name, "value", value, "experiment", experiment, "variant", variant)) + "\n");
    }

    /** Appends {@code line} to the extras file; nothing without the property. */
    private static synchronized void append(String line) {
        final String path = System.getProperty(PROPERTY);
        if (path == null) {
            return;
        }
        try {
            Files.writeString(Path.of(path), line, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the extras file " + path, e);
        }
    }

    /** Appends one measured value; {@code check} is {@code "ok"} or {@code "n/a"}. */
    public static void record(String experiment, String variant, Map<String, Object> params,
            String metric, String unit, double value, String check) {
        append(Json.write(Map.of(
                "experiment", experiment, "variant", variant, "params", params,
                "metric", metric, "unit", unit, "value", value, "check", check)) + "\n");
    }
}
