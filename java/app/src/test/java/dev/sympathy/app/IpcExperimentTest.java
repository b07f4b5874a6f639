package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.CatalogException;
import dev.sympathy.catalog.ExperimentSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code run ipc}'s cases and plan, from the repository's experiments/ipc.toml. */
class IpcExperimentTest {
    /** The catalog folder, from java/app (Maven's working directory for the tests). */
    private static final Path EXPERIMENTS = Path.of("../../experiments").toAbsolutePath().normalize();

    private static ExperimentSpec catalog() {
        return Catalog.load(EXPERIMENTS).experiment("ipc");
    }

    @Test
    void shouldListEveryVariantWithTheCatalogValuesAndTheRustParamNames() throws Exception {
        List<IpcExperiment.Case> cases = IpcExperiment.cases(catalog(), IpcExperiment.VARIANTS, "quick");
        assertEquals(List.of("ring", "echo", "ring-cross", "echo-cross-ffm", "echo-cross-jni", "mpsc", "mpsc",
                "mpsc-mixed", "mpsc-agrona", "mpsc-agrona", "broadcast", "broadcast", "broadcast-agrona",
                "broadcast-agrona"), cases.stream().map(IpcExperiment.Case::variant).toList());
        assertEquals(List.of("producer", "consumer", "size_bytes", "capacity", "writes", "count", "placement"),
                List.copyOf(cases.get(0).params().keySet()));
        assertTrue(cases.get(1).params().containsKey("round_trips"));
        assertEquals(2_000_000L, cases.get(0).params().get("count"));
        assertEquals(262_144L, cases.get(0).params().get("capacity"));
        assertEquals("rust", cases.get(2).params().get("producer"));
        assertEquals("java", cases.get(2).params().get("consumer"));
        String plan = cases.get(2).planJson();
        assertTrue(plan.startsWith("{\"kind\":\"plan\",\"experiment\":\"ipc\",\"language\":\"java\","
                + "\"variant\":\"ring-cross\""), plan);
        for (IpcExperiment.Case echoCross : cases.subList(3, 5)) {
            assertEquals("java", echoCross.params().get("producer"), echoCross.variant());
            assertEquals("rust", echoCross.params().get("consumer"), echoCross.variant());
            assertEquals(100_000L, echoCross.params().get("round_trips"), echoCross.variant());
            assertTrue(echoCross.needsRust() && !echoCross.throughput(), echoCross.variant());
        }
        assertEquals(List.of("ffm", "ffm", "ffm", "ffm", "jni"),
                cases.subList(0, 5).stream().map(IpcExperiment.Case::ringImpl).toList());
        assertFalse(cases.get(1).needsRust());
    }

    @Test
    void shouldPlanTheOtherRingKindsWithTheirProducersAndReceivers() {
        List<IpcExperiment.Case> cases = IpcExperiment.cases(catalog(),
                List.of("mpsc", "mpsc-mixed", "mpsc-agrona", "broadcast", "broadcast-agrona"), "quick");
        assertEquals(List.of(1, 2, 2, 1, 2, 1, 2, 1, 2), cases.stream().map(IpcExperiment.Case::peers).toList());
        assertEquals(List.of("producer", "consumer", "size_bytes", "capacity", "writes", "producers", "count",
                "placement"), List.copyOf(cases.get(0).params().keySet()));
        assertEquals("rust+java", cases.get(2).params().get("producer"));
        assertTrue(cases.get(2).needsRust() && !cases.get(0).needsRust() && !cases.get(3).needsRust());
        assertTrue(cases.stream().allMatch(IpcExperiment.Case::throughput));
        IpcExperiment.Case broadcast = cases.get(6);
        assertEquals(2, broadcast.params().get("receivers"));
        assertEquals(64L << 20, broadcast.capacity());
        // The whole run fits in half the ring: 16-byte records of a 4-byte message.
        assertTrue(broadcast.messages() * 16 <= broadcast.capacity() / 2, broadcast.toString());
        assertEquals(2_097_152L, IpcExperiment.broadcastCount(50_000_000L, 4, 64L << 20));
        assertEquals(1_000L, IpcExperiment.broadcastCount(1_000L, 4, 64L << 20));
        assertEquals(List.of(1000L, 1000L, 999L), java.util.Arrays.stream(IpcKinds.split(2999, 3)).boxed().toList());
    }

    @Test
    void shouldPrintThePlanAndRefuseWhatItDoesNotRun() throws Exception {
        String before = System.getProperty(Catalog.PROPERTY);
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setProperty(Catalog.PROPERTY, EXPERIMENTS.toString());
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            assertEquals(0, Sidecar.run(new String[] {"run", "ipc", "--plan", "--smoke", "--variants", "echo"}));
            assertEquals(EXPERIMENTS.getParent(), IpcExperiment.repositoryRoot());
            assertEquals(2, Sidecar.run(new String[] {"run", "ipc", "--plan", "--variants", "sideways"}));
            assertEquals(2, Sidecar.run(new String[] {"run", "queue"}));
            assertEquals(2, Sidecar.run(new String[] {"run", "ipc", "--smoke", "--full"}));
        } finally {
            System.setOut(out);
            if (before == null) {
                System.clearProperty(Catalog.PROPERTY);
            } else {
                System.setProperty(Catalog.PROPERTY, before);
            }
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.lines().count(), text);
        assertTrue(text.contains("\"variant\":\"echo\"") && text.contains("\"round_trips\":2000"), text);
        assertFalse(text.contains("\"preset\""), text);
    }

    @Test
    void shouldSayWhereTheCatalogIsMissing() {
        CatalogException e = assertThrows(CatalogException.class, () -> Catalog.load(EXPERIMENTS.resolve("nope")));
        assertTrue(e.getMessage().contains("no experiment catalog"), e.getMessage());
    }
}
