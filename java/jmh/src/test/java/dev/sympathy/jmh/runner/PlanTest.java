package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Language;
import dev.sympathy.catalog.ParamSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.dispatch.DispatchStepDown;
import dev.sympathy.jmh.walk.MemoryWalk;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code --plan} on the repository's catalog (surefire passes its folder): the groups it lists
 * carry the catalog's values at the preset, in the catalog's names, for the catalog's Java variants.
 */
class PlanTest {
    private static final Catalog CATALOG = Catalog.fromProperty();
    private static final JmhExperiments FOUND = JmhExperiments.found();

    private static List<Map<String, Object>> plan(String id, Preset preset) {
        final JmhExperiment experiment = FOUND.byId(id).orElseThrow();
        return Plan.lines(experiment, FOUND.at(experiment, CATALOG, preset), CATALOG.common());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> params(Map<String, Object> line) {
        return (Map<String, Object>) line.get("params");
    }

    @Test
    void shouldPlanTheCatalogsMemoryWalkSizeAtDefault() {
        final ExperimentSpec spec = CATALOG.experiment("memory-walk");
        final long catalogSize = spec.param("size_bytes").orElseThrow().longAt(Preset.DEFAULT);
        final List<Map<String, Object>> lines = plan("memory-walk", Preset.DEFAULT);
        assertFalse(lines.isEmpty());
        for (Map<String, Object> line : lines) {
            assertEquals("plan", line.get("kind"));
            assertEquals("memory-walk", line.get("experiment"));
            assertEquals("java", line.get("language"));
            assertEquals(catalogSize, params(line).get("size_bytes"), line.toString());
            assertEquals(false, params(line).get("huge_pages"), line.toString());
            assertFalse(params(line).containsKey("preset"), "runner params stay out of the plan: " + line);
        }
        // each walk off the heap (Rust's work) and, as its -on-heap variant, on the heap
        final Set<Object> memories = lines.stream().map(l -> params(l).get("memory")).collect(Collectors.toSet());
        assertEquals(Set.of("off-heap", "on-heap"), memories);
        assertEquals(spec.variantsIn(Language.JAVA).size(), lines.size());
        for (Map<String, Object> line : lines) {
            assertEquals(((String) line.get("variant")).endsWith("-on-heap") ? "on-heap" : "off-heap",
                    params(line).get("memory"), line.toString());
        }
    }

    @Test
    void shouldPlanTheCatalogsDispatchIterationsAtDefault() {
        final Set<Long> catalogIterations = CATALOG.experiment("dispatch").param("iterations").orElseThrow()
                .valuesAt(Preset.DEFAULT).stream().map(v -> (Long) v).collect(Collectors.toSet());
        final List<Map<String, Object>> lines = plan("dispatch", Preset.DEFAULT);
        assertFalse(lines.isEmpty());
        for (Map<String, Object> line : lines) {
            assertTrue(catalogIterations.contains(((Number) params(line).get("iterations")).longValue()), line.toString());
        }
        final Map<Object, Object> implementations = lines.stream().filter(l -> !l.get("variant").equals("step-down"))
                .collect(Collectors.toMap(l -> l.get("variant"), l -> params(l).get("implementations"), (a, b) -> a));
        assertEquals(Map.of("mono", 1, "bi", 2, "mono-call", 1, "bi-call", 2, "mega", 4), implementations);
        // the seed's step-down: one group per phase
        assertEquals(DispatchStepDown.phases(), lines.stream().filter(l -> l.get("variant").equals("step-down")).count());
    }

    @Test
    void shouldPlanTheElementEachQueueVariantCarriesAsTheCatalogSaysIt() {
        final ExperimentSpec queue = CATALOG.experiment("queue");
        final List<Map<String, Object>> lines = plan("queue", Preset.DEFAULT);
        assertFalse(lines.isEmpty());
        for (Map<String, Object> line : lines) {
            final Object element = queue.variants().stream()
                    .filter(v -> v.nameIn(Language.JAVA).equals(line.get("variant"))).findFirst().orElseThrow()
                    .params().getOrDefault("element", queue.param("element").orElseThrow().at(Preset.DEFAULT));
            assertEquals(element, params(line).get("element"), line.toString());
        }
        // the library queues of objects carry boxes, the int queues values
        final Map<Object, Object> elements = lines.stream()
                .collect(Collectors.toMap(l -> l.get("variant"), l -> params(l).get("element"), (a, b) -> a));
        assertEquals("boxed-u32", elements.get("jctools-spsc"));
        assertEquals("u32", elements.get("p1c1"));
    }

    @Test
    void shouldPlanEveryJavaVariantOfTheCatalogAtEachPresetAndNoOther() {
        for (Preset preset : Preset.values()) {
            for (JmhExperiment experiment : FOUND.all()) {
                final Set<Object> planned = new LinkedHashSet<>();
                plan(experiment.id(), preset).forEach(line -> planned.add(line.get("variant")));
                assertEquals(Set.copyOf(CATALOG.experiment(experiment.id()).variantsAt(Language.JAVA, preset)), planned,
                        experiment.id() + " at " + preset.label() + ": the benchmarks' variants and the catalog's Java variants");
            }
        }
        // skip_at = ["quick"]: the on-heap walks and step-down leave quick, and stay at smoke
        assertFalse(plan("memory-walk", Preset.QUICK).stream().anyMatch(l -> "linear-on-heap".equals(l.get("variant"))));
        assertFalse(plan("dispatch", Preset.QUICK).stream().anyMatch(l -> "step-down".equals(l.get("variant"))));
        assertTrue(plan("dispatch", Preset.SMOKE).stream().anyMatch(l -> "step-down".equals(l.get("variant"))));
    }

    @Test
    void shouldPassEveryDeclaredParamTheCatalogsValuesAtEachPreset() {
        for (Preset preset : Preset.values()) {
            for (JmhExperiment experiment : FOUND.all()) {
                final ExperimentSpec spec = CATALOG.experiment(experiment.id());
                for (JmhRun run : experiment.runs(FOUND.at(experiment, CATALOG, preset))) {
                    final Set<String> declared = JmhCase.declaredParams(run.benchmark());
                    for (JmhCase c : JmhCase.expand(run.benchmark(), run.options().build())) {
                        for (ParamSpec p : spec.params()) {
                            final String name = ExperimentAt.lowerCamel(p.name());
                            if (declared.contains(name)) {
                                final List<String> values = p.valuesAt(preset).stream().map(String::valueOf).toList();
                                assertTrue(values.contains(c.param(name)), experiment.id() + " " + preset.label() + ": "
                                        + name + "=" + c.param(name) + " is not among the catalog's " + values);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldSizeTheMemoryWalkHeapFromTheCatalog() {
        final JmhExperiment walk = FOUND.byId("memory-walk").orElseThrow();
        final JmhRun run = walk.runs(FOUND.at(walk, CATALOG, Preset.FULL)).get(0);
        final long size = CATALOG.experiment("memory-walk").param("size_bytes").orElseThrow().longAt(Preset.FULL);
        assertEquals(MemoryWalk.class, run.benchmark());
        assertEquals(List.of("-Xmx" + ((size >> 20) + 1024) + "m"), run.jvmArgs());
    }

    @Test
    void shouldNameJmhParamsInLowerCamelCase() {
        assertEquals("sizeBytes", ExperimentAt.lowerCamel("size_bytes"));
        assertEquals("serviceNs", ExperimentAt.lowerCamel("service_ns"));
        assertEquals("count", ExperimentAt.lowerCamel("count"));
    }
}
