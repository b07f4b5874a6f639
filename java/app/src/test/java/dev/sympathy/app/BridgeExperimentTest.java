package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.results.Stats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run bridge}'s cases, plan, command line and process handling (from the repository's
 * experiments/bridge.toml), and the Aeron reference peers' commands run in this JVM.
 */
class BridgeExperimentTest {
    /** The catalog folder, from java/app (Maven's working directory for the tests). */
    private static final Path EXPERIMENTS = Path.of("../../experiments").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private static ExperimentSpec catalog() {
        return Catalog.load(EXPERIMENTS).experiment("bridge");
    }

    private static final BridgeExperiment.Overrides NONE = BridgeExperiment.Overrides.NONE;

    @Test
    void shouldListEveryJavaVariantOnEveryTransportWithTheCatalogsParams() {
        ExperimentSpec spec = catalog();
        List<BridgeExperiment.Case> cases = BridgeExperiment.cases(spec, List.of(), List.of(), Preset.SMOKE, NONE);
        List<Object> transports = spec.param("transport").orElseThrow().valuesAt(Preset.SMOKE);
        assertEquals(4 * transports.size(), cases.size(), cases.toString());
        assertEquals(List.of("ring-aeron-ring", "ring-aeron-ring-echo", "aeron", "aeron-echo"),
                cases.stream().map(BridgeExperiment.Case::variant).distinct().toList());
        assertEquals(transports, cases.subList(0, transports.size()).stream()
                .map(c -> (Object) c.transport()).toList());
        BridgeExperiment.Case ring = cases.get(0);
        assertEquals(List.of("transport", "size_bytes", "capacity", "count"), List.copyOf(ring.params().keySet()));
        assertEquals(spec.param("count").orElseThrow().longAt(Preset.SMOKE), ring.params().get("count"));
        assertEquals(spec.param("capacity").orElseThrow().longAt(Preset.SMOKE), ring.params().get("capacity"));
        assertTrue(ring.throughput() && !ring.reference());
        BridgeExperiment.Case echo = cases.get(transports.size());
        assertEquals(List.of("transport", "size_bytes", "capacity", "round_trips"),
                List.copyOf(echo.params().keySet()));
        assertFalse(echo.throughput());
        assertTrue(cases.get(cases.size() - 1).reference());
        String plan = ring.planJson();
        assertTrue(plan.startsWith("{\"kind\":\"plan\",\"experiment\":\"bridge\",\"language\":\"java\","
                + "\"variant\":\"ring-aeron-ring\",\"params\":{\"transport\":\"" + transports.get(0) + "\""), plan);
    }

    @Test
    void shouldTakeTheCommandLinesTransportsVariantsAndSizes() {
        List<BridgeExperiment.Case> cases = BridgeExperiment.cases(catalog(), List.of("aeron-echo", "aeron"),
                List.of("veth", "ipc"), Preset.QUICK, new BridgeExperiment.Overrides(64L, 1L << 16, 1000L, 7L));
        // catalog order of the variants, the command line's order of the transports
        assertEquals(List.of("aeron veth", "aeron ipc", "aeron-echo veth", "aeron-echo ipc"),
                cases.stream().map(c -> c.variant() + " " + c.transport()).toList());
        assertEquals(Map.of("transport", "veth", "size_bytes", 64, "capacity", 65_536L, "count", 1000L),
                cases.get(0).params());
        assertEquals(7L, cases.get(2).params().get("round_trips"));
        assertEquals(2_000, BridgeExperiment.warmupFor(7));
        assertEquals(20_000, BridgeExperiment.warmupFor(200_000));
    }

    @Test
    void shouldRefuseWhatItCannotRun() {
        ExperimentSpec spec = catalog();
        UsageException variant = assertThrows(UsageException.class,
                () -> BridgeExperiment.cases(spec, List.of("sideways"), List.of(), Preset.SMOKE, NONE));
        assertTrue(variant.getMessage().contains("aeron-echo"), variant.getMessage());
        UsageException transport = assertThrows(UsageException.class,
                () -> BridgeExperiment.cases(spec, List.of(), List.of("tcp"), Preset.SMOKE, NONE));
        assertTrue(transport.getMessage().contains("ipc, udp, veth"), transport.getMessage());
        UsageException twice = assertThrows(UsageException.class,
                () -> BridgeExperiment.cases(spec, List.of(), List.of("udp", "udp"), Preset.SMOKE, NONE));
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
        UsageException small = assertThrows(UsageException.class, () -> BridgeExperiment.cases(spec, List.of(),
                List.of(), Preset.SMOKE, new BridgeExperiment.Overrides(4L, null, null, null)));
        assertTrue(small.getMessage().contains("size 4 is outside 8.."), small.getMessage());
        UsageException big = assertThrows(UsageException.class, () -> BridgeExperiment.cases(spec, List.of(),
                List.of(), Preset.SMOKE, new BridgeExperiment.Overrides(8192L, 4096L, null, null)));
        assertTrue(big.getMessage().contains("larger --capacity"), big.getMessage());
    }

    @Test
    void shouldJoinTheHostsByTransport() {
        BridgeExperiment.Net ipc = new BridgeExperiment.Net("ipc", List.of(), List.of(), "127.0.0.1", "127.0.0.1");
        assertEquals("aeron:ipc", ipc.toB(BridgeExperiment.DATA_PORT));
        assertEquals(List.of("--aeron-dir", dir.resolve("aeron").toString()), ipc.driver(dir, true, true));
        assertEquals(List.of("--external-driver", "--aeron-dir", dir.resolve("aeron").toString()),
                ipc.driver(dir, false, false));
        BridgeExperiment.Net veth = new BridgeExperiment.Net("veth", List.of("ip", "netns", "exec", "s-a"),
                List.of("ip", "netns", "exec", "s-b"), BridgeExperiment.ADDRESS_A, BridgeExperiment.ADDRESS_B);
        assertEquals("aeron:udp?endpoint=10.201.0.2:40123", veth.toB(BridgeExperiment.DATA_PORT));
        assertEquals("aeron:udp?endpoint=10.201.0.1:40124", veth.toA(BridgeExperiment.CONFIRM_PORT));
        assertEquals("aeron:udp?endpoint=10.201.0.1:40125", veth.toA(BridgeExperiment.REVERSE_DATA_PORT));
        assertEquals("aeron:udp?endpoint=10.201.0.2:40126", veth.toB(BridgeExperiment.REVERSE_CONFIRM_PORT));
        assertEquals(List.of("--aeron-dir", dir.resolve("aeron-b").toString()), veth.driver(dir, false, false));
    }

    @Test
    void shouldReportThePercentilesOfTheRoundTrips() {
        long[] rtt = new long[1000];
        for (int i = 0; i < rtt.length; i++) {
            rtt[i] = 1000 - i; // 1000 .. 1
        }
        long[] p = BridgeExperiment.percentiles(rtt); // sorts them: nearest rank, as run ipc's echo
        assertArrayEquals(new long[] {Stats.quantile(rtt, 0.5), Stats.quantile(rtt, 0.99), Stats.quantile(rtt, 0.999),
            1000}, p);
        assertEquals(500, p[0]);
        assertEquals(1, rtt[0]);
    }

    /** A stand-in peer: prints its ready line, and its counters when SIGTERM stops it. */
    private static Process shell(String script) throws Exception {
        return new ProcessBuilder("sh", "-c", script).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    @Test
    void shouldStopAPeerWithSigtermAndKeepItsCountersLine() throws Exception {
        BridgeExperiment.Child peer = new BridgeExperiment.Child("peer",
                shell("trap 'echo counters: done; exit 0' TERM; echo up; while :; do sleep 0.05; done"));
        assertEquals("up", peer.awaitReady(10_000));
        peer.stop(10_000);
        assertEquals("counters: done", peer.lastLine());
        BridgeExperiment.Child early = new BridgeExperiment.Child("early", shell("exit 3"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> early.awaitReady(10_000));
        assertTrue(e.getMessage().contains("exited (status 3) before it was up"), e.getMessage());
        BridgeExperiment.Child silent = new BridgeExperiment.Child("silent", shell("echo up; exec sleep 30"));
        silent.awaitReady(10_000);
        IllegalStateException unclean = assertThrows(IllegalStateException.class, () -> silent.stop(10_000));
        assertTrue(unclean.getMessage().contains("did not stop cleanly"), unclean.getMessage());
    }

    @Test
    void shouldFailARunWhosePeerExitsAndSayWhy() throws Exception {
        BridgeExperiment.Child bridge = new BridgeExperiment.Child("bridge end",
                shell("echo up; sleep 0.2; echo oops; exit 5"));
        bridge.awaitReady(10_000);
        AtomicInteger ended = new AtomicInteger();
        BridgeExperiment.Watchdog watch = new BridgeExperiment.Watchdog(List.of(bridge), List.of(), null,
                ended::incrementAndGet);
        long deadline = System.currentTimeMillis() + 10_000;
        while (ended.get() == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        String why = watch.stop();
        assertEquals(1, ended.get(), "the run's loop was ended");
        assertTrue(why.contains("the bridge end process exited with status 5") && why.contains("oops"), why);
    }

    @Test
    void shouldPrintThePlanAndRefuseBadCommandLines() throws Exception {
        String before = System.getProperty(Catalog.PROPERTY);
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setProperty(Catalog.PROPERTY, EXPERIMENTS.toString());
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertEquals(0, Sidecar.run(new String[] {"run", "bridge", "--plan", "--smoke", "--variants",
                "ring-aeron-ring", "--transports", "udp"}));
            assertEquals(2, Sidecar.run(new String[] {"run", "bridge", "--plan", "--variants", "sideways"}));
            assertEquals(2, Sidecar.run(new String[] {"run", "bridge", "--smoke", "--full"}));
            assertEquals(2, Sidecar.run(new String[] {"run", "bridge", "--plan", "--size", "4"}));
            assertEquals(2, Sidecar.run(new String[] {"run", "bridge", "--plan", "--transports", "tcp"}));
            assertEquals(2, Sidecar.run(new String[] {"run", "bridge", "extra", "--plan"}));
            assertEquals(2, Sidecar.run(new String[] {"bridge", "aeron-sub", "--channel", "aeron:ipc", "--size", "32"}));
            assertEquals(2, Sidecar.run(new String[] {"bridge", "aeron-ping", "--channel", "aeron:ipc", "--reply-channel",
                "aeron:ipc", "--stream", "5", "--reply-stream", "5", "--count", "1", "--size", "32"}));
            assertEquals(2, Sidecar.run(new String[] {"bridge", "aeron-pub", "--channel", "aeron:ipc", "--count", "1",
                "--size", "4"}));
        } finally {
            System.setOut(out);
            System.setErr(err);
            if (before == null) {
                System.clearProperty(Catalog.PROPERTY);
            } else {
                System.setProperty(Catalog.PROPERTY, before);
            }
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.lines().count(), text);
        assertTrue(text.contains("\"variant\":\"ring-aeron-ring\"") && text.contains("\"transport\":\"udp\"")
                && text.contains("\"count\":"), text);
        assertFalse(text.contains("\"preset\""), text);
    }

    @Test
    void shouldRunThePeerCommandsOverUdp() throws Exception {
        int port = 45_000 + new SplittableRandom().nextInt(1000) * 2;
        String in = "aeron:udp?endpoint=127.0.0.1:" + port;
        String out = "aeron:udp?endpoint=127.0.0.1:" + (port + 1);
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        AtomicReference<Integer> pongStatus = new AtomicReference<>();
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            Thread pong = new Thread(() -> pongStatus.set(Sidecar.run(new String[] {"bridge", "aeron-pong", "--channel",
                in, "--reply-channel", out, "--count", "2100", "--size", "24", "--linger-ms", "100", "--aeron-dir",
                dir.resolve("pong").toString(), "--timeout-ms", "20000"})));
            pong.start();
            int ping = Sidecar.run(new String[] {"bridge", "aeron-ping", "--channel", in, "--reply-channel", out,
                "--count", "100", "--warmup", "2000", "--size", "24", "--aeron-dir", dir.resolve("ping").toString(),
                "--timeout-ms", "20000"});
            pong.join(30_000);
            assertEquals(0, ping);
            assertEquals(0, pongStatus.get());
        } finally {
            System.setOut(stdout);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("aeron-ping: " + in + " stream 1001, replies " + out + " stream 1002"), text);
        long p50 = ChildJvm.value(text, "rtt_p50_ns", "ping");
        long max = ChildJvm.value(text, "rtt_max_ns", "ping");
        assertTrue(p50 > 0 && p50 <= max, text);
        assertTrue(text.contains("echoed 2100 frames"), text);
        assertFalse(Files.exists(dir.resolve("ping")), "the ping's driver folder removed on close");
    }
}
