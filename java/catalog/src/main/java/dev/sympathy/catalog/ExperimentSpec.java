package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code experiments/<name>.toml}: one experiment.
 *
 * <pre>{@code
 * ExperimentSpec dispatch = catalog.experiment("dispatch");
 * dispatch.variantsIn(Language.JAVA)                  // [mono, bi, mega, step-down]
 * dispatch.variantName(Language.JAVA, "mega")         // "dyn-4"
 * dispatch.param("iterations").orElseThrow().at(Preset.QUICK)
 * }</pre>
 *
 * @param name the name in results, {@code sympathy run <name>} and {@code compare --only} (lower-kebab case)
 * @param purpose one line: what it measures
 * @param seeds the seed articles it ports (keys of {@code docs/seeds.md})
 * @param variants its variants, in report order
 * @param params its parameters with their values at each preset
 * @param metrics the metrics its results carry (names from {@code common.toml})
 * @param headline the rule of its line in the report's findings, or {@code null}
 * @param seedFigures figures the seed articles published, shown beside ours
 * @param estimateS seconds each language's run is expected to take at each preset
 * @param compareDefault whether {@code compare} without {@code --only} runs it (true when absent)
 * @param runs timed runs of each case {@code sympathy run} makes at each preset, by preset name
 *     (the Rust runs; JMH's iterations are the Java runner's)
 * @param hopDependent whether its figures move with the one-way hop between two cores (false when
 *     absent); only the report reads it
 * @param parity the parity facts ({@code common.toml}'s {@code parity_facts}) its results carry
 *     and the two sides of a pair must share; only the report reads it
 * @param gaps why its languages differ where they differ by much, with the evidence; only the
 *     report reads it (the Rust catalog validates them), so they are kept here as read
 */
public record ExperimentSpec(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) String purpose,
        List<String> seeds,
        @JsonProperty(required = true) List<VariantSpec> variants,
        List<ParamSpec> params,
        @JsonProperty(required = true) List<String> metrics,
        HeadlineSpec headline,
        List<SeedFigureSpec> seedFigures,
        Map<Language, PresetSeconds> estimateS,
        Boolean compareDefault,
        @JsonProperty(required = true) Map<String, Integer> runs,
        Boolean hopDependent,
        List<String> parity,
        List<Map<String, Object>> gaps) {
    public ExperimentSpec {
        gaps = gaps == null ? List.of() : List.copyOf(gaps);
        parity = parity == null ? List.of() : List.copyOf(parity);
        compareDefault = compareDefault == null || compareDefault;
        runs = Map.copyOf(runs);
        hopDependent = hopDependent != null && hopDependent;
        seeds = seeds == null ? List.of() : List.copyOf(seeds);
        variants = List.copyOf(variants);
        params = params == null ? List.of() : List.copyOf(params);
        metrics = List.copyOf(metrics);
        seedFigures = seedFigures == null ? List.of() : List.copyOf(seedFigures);
        estimateS = estimateS == null ? Map.of() : Map.copyOf(estimateS);
    }

    /** The parameter called {@code name} (snake case). */
    public Optional<ParamSpec> param(String name) {
        return params.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The variant called {@code name} (the catalog's name). */
    public Optional<VariantSpec> variant(String name) {
        return variants.stream().filter(v -> v.name().equals(name)).findFirst();
    }

    /**
     * The catalog's name of a variant {@code language} calls {@code name}: the Rust name of a Java
     * variant whose work has another name in Java, else {@code name} itself.
     */
    public String variantName(Language language, String name) {
        if (language != Language.JAVA) {
            return name;
        }
        return variants.stream().filter(v -> name.equals(v.java())).map(VariantSpec::name).findFirst().orElse(name);
    }

    /** The variants {@code language} implements, by that language's names ({@link VariantSpec#nameIn}). */
    public List<String> variantsIn(Language language) {
        return variants.stream().filter(v -> v.languages().contains(language)).map(v -> v.nameIn(language)).toList();
    }

    /**
     * The variants {@code language} runs at {@code preset}: {@link #variantsIn} less those whose
     * {@link VariantSpec#skipAt} lists it.
     */
    public List<String> variantsAt(Language language, Preset preset) {
        return variants.stream().filter(v -> v.languages().contains(language) && v.runsAt(preset))
                .map(v -> v.nameIn(language)).toList();
    }
}
