package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code experiments/common.toml}: what every experiment shares.
 *
 * @param runnerParams result params that say how a language ran the work, never what it was
 *     ({@code forks}, {@code preset}, {@code pinning}, ...)
 * @param metrics every metric a result may carry
 */
public record CommonSpec(
        @JsonProperty(required = true) List<String> runnerParams,
        @JsonProperty(required = true) List<MetricSpec> metrics) {
    public CommonSpec {
        runnerParams = List.copyOf(runnerParams);
        metrics = List.copyOf(metrics);
    }
}
