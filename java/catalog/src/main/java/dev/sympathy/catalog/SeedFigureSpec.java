package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * A figure a seed article published ({@code [[seed_figures]]}), shown beside ours.
 *
 * @param variant the variant it applies to (empty: every variant)
 * @param metric the metric, in our units
 * @param params params a result must have for the figure to apply (values as text)
 * @param value the figure, converted to the metric's unit
 * @param language the language the seed measured
 * @param hardware the seed's machine
 * @param citation author, title, date (and section) of the source
 * @param note how the figure was read or converted
 */
public record SeedFigureSpec(
        String variant,
        @JsonProperty(required = true) String metric,
        Map<String, String> params,
        @JsonProperty(required = true) double value,
        @JsonProperty(required = true) String language,
        @JsonProperty(required = true) String hardware,
        @JsonProperty(required = true) String citation,
        String note) {
    public SeedFigureSpec {
        variant = variant == null ? "" : variant;
        params = params == null ? Map.of() : Map.copyOf(params);
        note = note == null ? "" : note;
    }
}
