package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * {@code experiments/common.toml}: what every experiment shares.
 *
 * @param runnerParams result params that say how a language ran the work, never what it was
 *     ({@code forks}, {@code preset}, {@code pinning}, ...)
 * @param metrics every metric a result may carry
 * @param compareRounds rounds {@code sympathy compare} runs at each preset, by preset name
 *     (read by compare alone; absent in a catalog written for the Java side only)
 * @param parityFacts every parity fact a result may carry, as name and what it says (read by the
 *     report alone)
 */
public record CommonSpec(
        @JsonProperty(required = true) List<String> runnerParams,
        @JsonProperty(required = true) List<MetricSpec> metrics,
        Map<String, Integer> compareRounds,
        List<Map<String, String>> parityFacts) {
    public CommonSpec {
        parityFacts = parityFacts == null ? List.of() : List.copyOf(parityFacts);
        runnerParams = List.copyOf(runnerParams);
        metrics = List.copyOf(metrics);
        compareRounds = compareRounds == null ? Map.of() : Map.copyOf(compareRounds);
    }
}
