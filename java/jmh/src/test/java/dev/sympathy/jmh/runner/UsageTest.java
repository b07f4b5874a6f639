package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.ExperimentSpec;
import org.junit.jupiter.api.Test;

/** {@code java/jmh/run run --help} (and {@code java/sidecar run --help}, which hands it here). */
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
}
