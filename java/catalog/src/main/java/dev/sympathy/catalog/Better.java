package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Which way a metric improves ({@code better = "higher"} in {@code common.toml}). */
public enum Better {
    /** Rates: more is better. */
    @JsonProperty("higher")
    HIGHER,
    /** Times and sizes: less is better. */
    @JsonProperty("lower")
    LOWER,
    /** Neither: the metric describes rather than ranks (one thread's share of the work). */
    @JsonProperty("neither")
    NEITHER
}
