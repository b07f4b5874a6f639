package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Seconds a run is expected to take at each preset: a line of an experiment's
 * {@code [estimate_s]} table, e.g. {@code java = { smoke = 5, quick = 30, default = 120, full = 600 }}
 * ({@code sympathy compare} announces and bounds its runs with them).
 *
 * @param smoke at {@code --smoke}
 * @param quick at {@code --quick}
 * @param defaultSeconds at the default preset (TOML key {@code default})
 * @param full at {@code --full}
 */
public record PresetSeconds(
        @JsonProperty(required = true) int smoke,
        @JsonProperty(required = true) int quick,
        @JsonProperty(value = "default", required = true) int defaultSeconds,
        @JsonProperty(required = true) int full) {

    /** The seconds at {@code preset}. */
    public int at(Preset preset) {
        return switch (preset) {
            case SMOKE -> smoke;
            case QUICK -> quick;
            case DEFAULT -> defaultSeconds;
            case FULL -> full;
        };
    }
}
