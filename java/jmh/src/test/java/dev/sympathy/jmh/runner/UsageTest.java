package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.ExperimentSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code java/jmh/run run --help} (and {@code java/sidecar run --help}, which hands it here), and
 * {@code java/jmh/run list} (which {@code java/sidecar run} asks).
 */
class UsageTest {
    @Test
    void shouldAnswerHelpWithTheUsageAndSuccess() throws Exception {
        assertEquals(0, Main.run(new String[] {"run", "--help"}));
        assertEquals(0, Main.run(new String[] {"--help"}));
        assertEquals(0, Main.run(new String[] {"run", "queue", "-h"}));
    }

    @Test
    void shouldListEveryExperimentOfTheCatalogTheSidecarRuns() {
        final String usage = Main.usage();
        for (ExperimentSpec experiment : Catalog.fromProperty().experiments()) {
            assertTrue(usage.contains(experiment.name()), experiment.name() + " missing from:\n" + usage);
        }
        assertTrue(usage.contains("experiments the sidecar runs (java/sidecar run NAME): "), usage);
    }

    @Test
    void shouldStillRefuseAnUnknownExperiment() throws Exception {
        assertEquals(2, Main.run(new String[] {"run", "no-such-experiment"}));
    }

    @Test
    void shouldListTheExperimentsUnderJmhOneALineInTheCatalogsOrder() throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        final int status;
        try {
            status = Main.run(new String[] {"list"});
        } finally {
            System.setOut(stdout);
        }
        assertEquals(0, status);
        final Catalog catalog = Catalog.fromProperty();
        final List<String> expected = JmhExperiments.found().inCatalogOrder(catalog).stream().map(JmhExperiment::id).toList();
        assertEquals(String.join("\n", expected) + "\n", out.toString(StandardCharsets.UTF_8));
        // the sidecar's experiments are in the catalog but not in the list
        final List<String> sidecar = catalog.experiments().stream().map(ExperimentSpec::name)
                .filter(name -> !expected.contains(name)).toList();
        assertTrue(Main.usage().contains("experiments the sidecar runs (java/sidecar run NAME): "
                + String.join(", ", sidecar)), Main.usage());
    }
}
