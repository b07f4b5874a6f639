package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * One parameter and its value at each preset ({@code [[params]]}). A value is a TOML scalar
 * (an integer, read as a {@link Long}; a float, a {@link Double}; a {@link String}; a
 * {@link Boolean}), or a list of them when the experiment runs every element (thread counts,
 * loads).
 *
 * <pre>{@code
 * ParamSpec size = catalog.experiment("memory-walk").param("size_bytes").orElseThrow();
 * size.at(Preset.QUICK)        // 134217728L
 * size.valuesAt(Preset.QUICK)  // [134217728L]
 * }</pre>
 *
 * @param name its key in result params (snake case; Java's JMH {@code @Param} is its lower camel case)
 * @param does one sentence: what it sets
 * @param role whether it describes the work or how a language ran it
 * @param smoke value at {@code --smoke}
 * @param quick value at {@code --quick}
 * @param defaultValue value at the default preset (TOML key {@code default})
 * @param full value at {@code --full} (the seeds' sizes)
 */
public record ParamSpec(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) String does,
        @JsonProperty(required = true) Role role,
        @JsonProperty(required = true) Object smoke,
        @JsonProperty(required = true) Object quick,
        @JsonProperty(value = "default", required = true) Object defaultValue,
        @JsonProperty(required = true) Object full) {
    public ParamSpec {
        smoke = normalize(name, "smoke", smoke);
        quick = normalize(name, "quick", quick);
        defaultValue = normalize(name, "default", defaultValue);
        full = normalize(name, "full", full);
    }

    /** The value at {@code preset}: a scalar or a list. */
    public Object at(Preset preset) {
        return switch (preset) {
            case SMOKE -> smoke;
            case QUICK -> quick;
            case DEFAULT -> defaultValue;
            case FULL -> full;
        };
    }

    /** The values at {@code preset}: the elements of a list, or the one scalar. */
    public List<Object> valuesAt(Preset preset) {
        final Object value = at(preset);
        if (value instanceof List<?> list) {
            return List.copyOf(list);
        }
        return List.of(value);
    }

    /** Whether the values are lists (then at every preset: the catalog checks it). */
    public boolean isList() {
        return smoke instanceof List<?>;
    }

    /**
     * The value at {@code preset} as an integer.
     *
     * @throws CatalogException when it is a list or not an integer
     */
    public long longAt(Preset preset) {
        if (at(preset) instanceof Long value) {
            return value;
        }
        throw new CatalogException("param `" + name + "` at " + preset.label() + " is " + at(preset)
                + ", not one integer");
    }

    /** Integers as {@link Long}, lists as immutable lists; tables and nested lists are refused. */
    private static Object normalize(String name, String preset, Object value) {
        if (value instanceof List<?> list) {
            final List<Object> out = new ArrayList<>();
            for (Object element : list) {
                if (element instanceof List<?>) {
                    throw new IllegalArgumentException("param `" + name + "` at " + preset + ": a list inside a list");
                }
                out.add(normalize(name, preset, element));
            }
            return List.copyOf(out);
        }
        return switch (value) {
            case Integer i -> (long) i;
            case Long l -> l;
            case Double d -> d;
            case String s -> s;
            case Boolean b -> b;
            case null -> throw new IllegalArgumentException("param `" + name + "` has no value at " + preset);
            default -> throw new IllegalArgumentException("param `" + name + "` at " + preset + ": " + value
                    + " is not an integer (64-bit), float, string or boolean");
        };
    }
}
