package dev.sympathy.catalog;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The experiment catalog, {@code experiments/*.toml}: {@code common.toml} (metrics, runner
 * params) and one file per experiment, in the format of {@code crates/harness/src/catalog/spec.rs}
 * (unknown keys are errors, as there). The launch scripts pass the folder as the system property
 * {@value #PROPERTY}.
 *
 * <pre>{@code
 * Catalog catalog = Catalog.fromProperty();   // -Dsympathy.experiments=<repo>/experiments
 * long bytes = catalog.experiment("memory-walk").param("size_bytes").orElseThrow().longAt(Preset.QUICK);
 * catalog.isWorkParam("memory-walk", "preset")  // false: a runner param of common.toml
 * }</pre>
 */
public final class Catalog {
    /** The system property naming the catalog folder. */
    public static final String PROPERTY = "sympathy.experiments";

    private static final String COMMON = "common.toml";
    private static final ObjectMapper TOML = TomlMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    private final CommonSpec common;
    private final Map<String, ExperimentSpec> experiments;

    private Catalog(CommonSpec common, Map<String, ExperimentSpec> experiments) {
        this.common = common;
        this.experiments = experiments;
    }

    /**
     * Reads the folder named by the system property {@value #PROPERTY}.
     *
     * @throws CatalogException when the property is unset, or as {@link #load}
     */
    public static Catalog fromProperty() {
        final String folder = System.getProperty(PROPERTY);
        if (folder == null || folder.isBlank()) {
            throw new CatalogException("the system property " + PROPERTY + " is not set: pass -D" + PROPERTY
                    + "=<repo>/experiments (the experiment catalog; java/jmh/run and java/sidecar set it)");
        }
        return load(Path.of(folder));
    }

    /**
     * Reads {@code common.toml} and every other {@code *.toml} of {@code folder}.
     *
     * @throws CatalogException naming the folder or file when one is missing, unreadable or wrong
     */
    public static Catalog load(Path folder) {
        if (!Files.isRegularFile(folder.resolve(COMMON))) {
            throw new CatalogException("no experiment catalog at " + folder.toAbsolutePath() + " (" + COMMON
                    + " is missing): point -D" + PROPERTY + " at the repository's experiments folder");
        }
        final CommonSpec common = read(folder.resolve(COMMON), CommonSpec.class);
        final List<Path> files;
        try (Stream<Path> list = Files.list(folder)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".toml"))
                    .filter(p -> !p.getFileName().toString().equals(COMMON))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new CatalogException("cannot list the experiment catalog " + folder.toAbsolutePath() + ": " + e, e);
        }
        final Map<String, ExperimentSpec> experiments = new LinkedHashMap<>();
        for (Path file : files) {
            final ExperimentSpec spec = read(file, ExperimentSpec.class);
            check(file, spec, common);
            experiments.put(spec.name(), spec);
        }
        return new Catalog(common, experiments);
    }

    private static <T> T read(Path file, Class<T> type) {
        try {
            return TOML.readValue(file.toFile(), type);
        } catch (JsonMappingException e) {
            throw new CatalogException(file + ": " + e.getOriginalMessage() + " (at " + e.getPathReference() + ")", e);
        } catch (JacksonException e) {
            throw new CatalogException(file + ": " + e.getOriginalMessage() + " (at " + e.getLocation() + ")", e);
        } catch (IOException e) {
            throw new CatalogException("cannot read " + file + ": " + e, e);
        }
    }

    /** What the Rust build script checks too and this reader relies on; each error names the file. */
    private static void check(Path file, ExperimentSpec spec, CommonSpec common) {
        final List<String> errors = new ArrayList<>();
        if (!file.getFileName().toString().equals(spec.name() + ".toml")) {
            errors.add("holds `" + spec.name() + "`; name the file after it");
        }
        for (ParamSpec p : spec.params()) {
            final long lists = Stream.of(Preset.values()).filter(preset -> p.at(preset) instanceof List<?>).count();
            if (lists != 0 && lists != Preset.values().length) {
                errors.add("param `" + p.name() + "` is a list at some presets and not at others");
            }
            // a runner param of common.toml may be listed as work where results differ in it
            if (common.runnerParams().contains(p.name()) && p.role() == Role.RUNNER) {
                errors.add("param `" + p.name() + "` is a runner param of every experiment (common.toml): drop it,"
                        + " or give it `role = \"work\"` where it says what a result is about");
            }
        }
        if (!errors.isEmpty()) {
            throw new CatalogException(file + ": " + String.join("; ", errors));
        }
    }

    /**
     * This catalog as a Java run that asks for some variants sees it (the JMH runner's
     * {@code --variants}): each experiment keeps the variants Java calls by a name in
     * {@code javaNames}, and those Java does not run; the other Java variants are dropped. A
     * variant named runs at every preset (its {@code skip_at} no longer applies).
     */
    public Catalog onlyJavaVariants(List<String> javaNames) {
        final Map<String, ExperimentSpec> narrowed = new java.util.LinkedHashMap<>();
        for (var e : experiments.entrySet()) {
            final ExperimentSpec spec = e.getValue();
            // a variant named runs at every preset, as Rust's --variants does (its skip_at dropped)
            final List<VariantSpec> kept = spec.variants().stream()
                    .filter(v -> !v.languages().contains(Language.JAVA) || javaNames.contains(v.nameIn(Language.JAVA)))
                    .map(v -> v.languages().contains(Language.JAVA)
                            ? new VariantSpec(v.name(), v.does(), v.languages(), v.java(), v.params(), List.of())
                            : v)
                    .toList();
            narrowed.put(e.getKey(), new ExperimentSpec(spec.name(), spec.purpose(), spec.seeds(), kept, spec.params(),
                    spec.metrics(), spec.headline(), spec.seedFigures(), spec.estimateS(), spec.compareDefault(),
                    spec.runs(), spec.hopDependent(), spec.parity(), spec.gaps()));
        }
        return new Catalog(common, narrowed);
    }

    /** {@code common.toml}. */
    public CommonSpec common() {
        return common;
    }

    /** Every experiment, by file name order. */
    public List<ExperimentSpec> experiments() {
        return List.copyOf(experiments.values());
    }

    /**
     * The experiment called {@code name}.
     *
     * @throws CatalogException listing the known names when there is none
     */
    public ExperimentSpec experiment(String name) {
        final ExperimentSpec spec = experiments.get(name);
        if (spec == null) {
            throw new CatalogException("no experiment `" + name + "` in the catalog (known: "
                    + String.join(", ", experiments.keySet()) + ")");
        }
        return spec;
    }

    /** The metric called {@code name}. */
    public Optional<MetricSpec> metric(String name) {
        return common.metrics().stream().filter(m -> m.name().equals(name)).findFirst();
    }

    /**
     * Whether result param {@code key} of {@code experiment} describes the work (and so must match
     * for a Rust and a Java result to pair). The experiment's own param decides first (its role:
     * atomic-increment's {@code thread} is work there), then the runner params of
     * {@code common.toml}. Keys the catalog does not know count as work.
     */
    public boolean isWorkParam(String experiment, String key) {
        return Optional.ofNullable(experiments.get(experiment)).flatMap(e -> e.param(key))
                .map(p -> p.role() == Role.WORK)
                .orElse(!common.runnerParams().contains(key));
    }
}
