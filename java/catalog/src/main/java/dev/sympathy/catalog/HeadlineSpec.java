package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The rule that picks an experiment's line in the report's findings ({@code headline = {...}}):
 * how the first of two {@code variants} compares with the second in each language, or with
 * {@code languages = true} the best figure of each language. The report (Rust) reads it; Java
 * reads it only so that the catalog parses the same in both.
 *
 * @param metric the metric it reads
 * @param variants two variants, the first compared with the second (empty with {@code languages})
 * @param params params a row must carry to count
 * @param languages compare the languages rather than two variants
 * @param claim the seed's lesson the two variants test, in words, or {@code null}
 * @param expect which side of 1 the lesson expects the ratio first/second on ({@code above} or
 *     {@code below}), or {@code null}
 */
public record HeadlineSpec(
        @JsonProperty(required = true) String metric,
        List<String> variants,
        Map<String, Object> params,
        Boolean languages,
        String claim,
        String expect) {
    public HeadlineSpec {
        variants = variants == null ? List.of() : List.copyOf(variants);
        params = params == null ? Map.of() : Map.copyOf(params);
        languages = languages != null && languages;
    }
}
