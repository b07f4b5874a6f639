package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Language;
import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.dispatch.Dispatch;
import dev.sympathy.jmh.dispatch.DispatchExperiment;
import dev.sympathy.jmh.dispatch.DispatchStepDown;
import dev.sympathy.jmh.runner.fixture.copy.CopiedWalkBenchmark;
import dev.sympathy.jmh.runner.fixture.orphan.OrphanBenchmark;
import dev.sympathy.jmh.runner.fixture.twice.TwiceBenchmark;
import dev.sympathy.jmh.runner.fixture.uncatalogued.UncataloguedBenchmark;
import dev.sympathy.jmh.runner.fixture.unmakeable.UnmakeableBenchmark;
import dev.sympathy.jmh.walk.MemoryWalk;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Finding the experiments under JMH from the code beside their benchmarks, and what the runner
 * says when a piece is missing (the fixtures under {@code runner/fixture} each lack one).
 */
class JmhExperimentsTest {
    private static final Catalog CATALOG = Catalog.fromProperty();
    private static final JmhExperiments FOUND = JmhExperiments.found();

    @Test
    void shouldFindAnExperimentBesideEveryBenchmarkClassOfJmhsListWithNothingMissing() {
        assertEquals(List.of(), FOUND.problems(CATALOG));
        final List<String> benchmarks = JmhExperiments.benchmarkClassNames();
        assertFalse(benchmarks.isEmpty(), "JMH's list (META-INF/BenchmarkList) is empty");
        final Set<String> ofAnExperiment = FOUND.all().stream().flatMap(e -> FOUND.benchmarkClasses(e).stream())
                .map(Class::getName).collect(Collectors.toSet());
        assertEquals(Set.copyOf(benchmarks), ofAnExperiment);
    }

    @Test
    void shouldGiveEachExperimentFoundACatalogEntryWithJavaVariants() {
        assertFalse(FOUND.all().isEmpty());
        for (JmhExperiment experiment : FOUND.all()) {
            final ExperimentSpec spec = CATALOG.experiment(experiment.id());
            assertFalse(spec.variantsIn(Language.JAVA).isEmpty(), experiment.id());
        }
    }

    @Test
    void shouldKeepAllTheBenchmarkClassesOfAPackageWithItsOneExperiment() {
        final JmhExperiment dispatch = FOUND.byId("dispatch").orElseThrow();
        assertEquals(DispatchExperiment.class, dispatch.getClass());
        assertEquals(List.of(Dispatch.class, DispatchStepDown.class), FOUND.benchmarkClasses(dispatch));
    }

    @Test
    void shouldRunAllInTheCatalogsOrder() {
        final List<String> catalogOrder = CATALOG.experiments().stream().map(ExperimentSpec::name).toList();
        final List<String> ids = FOUND.inCatalogOrder(CATALOG).stream().map(JmhExperiment::id).toList();
        assertEquals(catalogOrder.stream().filter(ids::contains).toList(), ids);
        assertEquals(FOUND.all().size(), ids.size());
    }

    @Test
    void shouldNameAPackageOfBenchmarksWithoutAnExperimentClass() {
        final List<String> problems = JmhExperiments.of(List.of(OrphanBenchmark.class.getName())).problems();
        assertEquals(List.of("package dev.sympathy.jmh.runner.fixture.orphan holds the benchmark classes"
                + " [OrphanBenchmark] but no JmhExperiment: add its experiment class beside them, a public class"
                + " implementing dev.sympathy.jmh.runner.JmhExperiment (docs/adding-an-experiment.md)"), problems);
    }

    @Test
    void shouldRefuseTwoExperimentClassesInOnePackage() {
        final List<String> problems = JmhExperiments.of(List.of(TwiceBenchmark.class.getName())).problems();
        assertEquals(List.of("package dev.sympathy.jmh.runner.fixture.twice holds 2 experiment classes"
                + " [FirstExperiment, SecondExperiment] beside the benchmark classes [TwiceBenchmark]:"
                + " one experiment a package"), problems);
    }

    @Test
    void shouldNameAnExperimentClassItCannotMake() {
        final List<String> problems = JmhExperiments.of(List.of(UnmakeableBenchmark.class.getName())).problems();
        assertEquals(List.of("dev.sympathy.jmh.runner.fixture.unmakeable.UnmakeableExperiment needs a public"
                + " constructor without arguments for the runner to make it"), problems);
    }

    @Test
    void shouldNameAnExperimentTheCatalogHasNoEntryFor() {
        final JmhExperiments found = JmhExperiments.of(List.of(UncataloguedBenchmark.class.getName()));
        assertEquals(List.of(), found.problems());
        final List<String> problems = found.problems(CATALOG);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("dev.sympathy.jmh.runner.fixture.uncatalogued.UncataloguedExperiment"
                + " runs experiment 'false-sharing', which the catalog has no entry for: add"
                + " experiments/false-sharing.toml, or correct its id()"), problems.get(0));
    }

    @Test
    void shouldNameTwoExperimentClassesClaimingOneId() {
        final List<String> problems = JmhExperiments.of(List.of(MemoryWalk.class.getName(),
                CopiedWalkBenchmark.class.getName())).problems();
        assertEquals(List.of("dev.sympathy.jmh.runner.fixture.copy.CopiedWalkExperiment and"
                + " dev.sympathy.jmh.walk.MemoryWalkExperiment both say they run experiment 'memory-walk':"
                + " one experiment, one package"), problems);
    }

    @Test
    void shouldNameAnExperimentWhoseCatalogEntryGivesJavaNoVariant() {
        // the catalog as if every Java variant had been left out of its entries
        final List<String> problems = FOUND.problems(CATALOG.onlyJavaVariants(List.of()));
        assertEquals(FOUND.all().size(), problems.size(), problems.toString());
        assertTrue(problems.contains("experiments/memory-walk.toml gives Java no variant, yet"
                + " dev.sympathy.jmh.walk.MemoryWalkExperiment runs it under JMH: add \"java\" to the languages of"
                + " the variants its benchmarks run"), problems.toString());
    }

    @Test
    void shouldScoreOnlyMetricsTheCatalogListsForTheExperiment() {
        for (Preset preset : Preset.values()) {
            for (JmhExperiment experiment : FOUND.all()) {
                final ExperimentAt at = FOUND.at(experiment, CATALOG, preset);
                for (JmhRun run : JmhRun.withCases(experiment.runs(at))) {
                    for (JmhCase c : JmhCase.expand(run.benchmark(), run.options().build())) {
                        experiment.score(c, at).ifPresent(score -> score.metrics().forEach(metric -> {
                            assertTrue(at.spec().metrics().contains(metric.metric()), experiment.id() + " scores "
                                    + metric.metric() + ", which its catalog entry does not list");
                            assertTrue(CATALOG.metric(metric.metric()).isPresent(), metric.metric());
                        }));
                    }
                }
            }
        }
    }
}
