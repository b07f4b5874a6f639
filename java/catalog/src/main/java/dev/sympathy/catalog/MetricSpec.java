package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One metric of {@code common.toml}: its name in results, its unit, which way is better.
 *
 * @param name the name in result records, e.g. {@code ns_per_op}
 * @param unit the unit of its values: {@code ns}, {@code ms}, {@code bytes}, {@code %}, {@code ratio}, or a rate {@code msgs/s}, ...
 * @param better which way is better
 * @param does one sentence saying what it measures
 */
public record MetricSpec(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) String unit,
        @JsonProperty(required = true) Better better,
        @JsonProperty(required = true) String does) {
}
