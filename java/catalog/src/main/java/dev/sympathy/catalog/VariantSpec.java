package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One variant of an experiment ({@code [[variants]]}).
 *
 * @param name its name in results (the Rust name when the languages differ)
 * @param does one sentence: what it does
 * @param languages the languages that implement it
 * @param java Java's name for the same work, when it differs from {@code name} (may be null)
 * @param params params whose value this variant fixes at every preset, in place of the
 *     experiment's (dispatch's {@code dyn-4}: {@code implementations = 4})
 * @param skipAt presets at which no language runs it ({@code skip_at = ["quick"]}): a
 *     single-language baseline that pairs with nothing leaves {@code quick} and runs from
 *     {@code default} on
 */
public record VariantSpec(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) String does,
        @JsonProperty(required = true) List<Language> languages,
        String java,
        Map<String, Object> params,
        List<Preset> skipAt) {
    public VariantSpec {
        languages = List.copyOf(languages);
        params = params == null ? Map.of() : Map.copyOf(params);
        skipAt = skipAt == null ? List.of() : List.copyOf(skipAt);
    }

    /** Whether it runs at {@code preset} (not listed in {@link #skipAt()}). */
    public boolean runsAt(Preset preset) {
        return !skipAt.contains(preset);
    }

    /**
     * Its name in {@code language}'s results: {@link #java()} for Java when set, else {@link #name()}
     * (dispatch's {@code dyn-4} is {@code mega} in Java).
     */
    public String nameIn(Language language) {
        return language == Language.JAVA ? Optional.ofNullable(java).orElse(name) : name;
    }
}
