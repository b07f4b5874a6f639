package dev.sympathy.jmh.runner;

import dev.sympathy.results.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parity facts of one JMH run (docs/results.md), gathered from the extras lines that
 * {@code Extras.fact} wrote in the forks, and put into each result's {@code parity} object.
 *
 * <p>{@code pinned} is the run's measured pinning: true when some fork pinned a thread and none
 * asked for a pin it could not make, false otherwise (a run whose benchmarks never pin says
 * false, as Rust's does). A fact with an experiment and a variant belongs to that variant's
 * results; one without, to every result of the run.
 *
 * <pre>{@code
 * Facts facts = Facts.of(extrasLines);
 * facts.attach(record);   // record.get("parity") -> {"pinned": true, "inputs": 256, ...}
 * }</pre>
 */
final class Facts {
    private final Boolean pinned;
    private final Map<String, Object> everyResult;
    private final Map<List<String>, Map<String, Object>> byVariant;

    private Facts(Boolean pinned, Map<String, Object> everyResult, Map<List<String>, Map<String, Object>> byVariant) {
        this.pinned = pinned;
        this.everyResult = everyResult;
        this.byVariant = byVariant;
    }

    /** Whether an extras line is a fact (rather than a measured value). */
    static boolean isFact(Map<String, Object> line) {
        return line.containsKey("fact");
    }

    /** The facts among {@code extrasLines}. */
    static Facts of(List<String> extrasLines) {
        boolean anyPinned = false;
        boolean anyUnpinned = false;
        final Map<String, Object> everyResult = new LinkedHashMap<>();
        final Map<List<String>, Map<String, Object>> byVariant = new LinkedHashMap<>();
        for (String line : extrasLines) {
            if (line.isBlank()) {
                continue;
            }
            if (!(Json.parse(line) instanceof Map<?, ?> raw) || !raw.containsKey("fact")) {
                continue;
            }
            final String name = String.valueOf(raw.get("fact"));
            final Object value = raw.get("value");
            if (name.equals("pinned")) {
                anyPinned |= Boolean.TRUE.equals(value);
                anyUnpinned |= !Boolean.TRUE.equals(value);
            } else if (raw.get("experiment") instanceof String experiment && raw.get("variant") instanceof String variant) {
                byVariant.computeIfAbsent(List.of(experiment, variant), k -> new LinkedHashMap<>()).put(name, value);
            } else {
                everyResult.put(name, value);
            }
        }
        return new Facts(anyPinned && !anyUnpinned, everyResult, byVariant);
    }

    /** Puts the facts of {@code record}'s experiment and variant into its {@code parity} object. */
    void attach(Map<String, Object> record) {
        final Map<String, Object> parity = new LinkedHashMap<>();
        parity.put("pinned", pinned);
        parity.putAll(everyResult);
        parity.putAll(byVariant.getOrDefault(
                List.of(String.valueOf(record.get("experiment")), String.valueOf(record.get("variant"))), Map.of()));
        record.put("parity", parity);
    }
}
