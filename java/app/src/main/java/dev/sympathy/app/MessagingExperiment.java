package dev.sympathy.app;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.CatalogException;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Language;
import dev.sympathy.catalog.ParamSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.catalog.VariantSpec;
import dev.sympathy.results.Stats;
import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code run messaging}: the messaging experiment of the catalog ({@code experiments/messaging.toml})
 * with Java receiving, the twin of {@code sympathy run messaging}: price updates encoded by a
 * sender process, sent over the FFM ring, received, decoded and checked field by field by a
 * thread of this JVM pinned to the receiver core. The sender is a child JVM ({@code publish},
 * sender {@code same-language}) or Rust's {@code sympathy run ipc-peer publisher}
 * ({@code other-language}). Variants (Java's names): {@code raw}, {@code sbe}, {@code struct},
 * {@code byte-buffer} (Rust's {@code hand-codec}), {@code java-serialization} (Rust's {@code serde});
 * the cases alternate run by run, and each is compared with {@code raw} of the same sender per round.
 *
 * <pre>
 * java/sidecar run messaging --quick --json
 * java/sidecar run messaging --plan
 * java/sidecar run messaging --variants raw,sbe --senders other-language --runs 5
 * </pre>
 */
final class MessagingExperiment {
    private MessagingExperiment() {}

    /**
     * One result group. {@code variant} is the catalog's (Rust's) name, {@code javaName} Java's;
     * {@code countParam} is {@code count} or {@code stock_count}.
     */
    record Case(String variant, String javaName, String sender, long capacity, String countParam, long messages) {
        /**
         * The byte format on the ring (the {@code format} parity fact, as Rust's
         * {@code messaging::Variant::format} names it): {@code java.io} for java-serialization,
         * the catalog's variant name for the others.
         */
        String format() {
            return javaName.equals("java-serialization") ? "java.io" : variant;
        }

        /** The sending process's language. */
        String producer() {
            return sender.equals("same-language") ? "java" : "rust";
        }

        /** The wire's name (Rust's encodings; java-serialization for serde). */
        String wire() {
            return switch (variant) {
                case "serde" -> "java-serialization";
                default -> variant;
            };
        }

        String label() {
            return javaName + " " + sender + " (" + producer() + " -> java)";
        }

        /** The params, in the order and with the names of the Rust side's results. */
        Map<String, Object> params() {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("sender", sender);
            params.put("producer", producer());
            params.put("consumer", "java");
            params.put("capacity", capacity);
            params.put(countParam, messages);
            params.put("placement", "cross-core");
            return params;
        }

        /** The plan line ({@link PlanLine}), the variant under Java's name. */
        String planJson() {
            return PlanLine.json("messaging", javaName, params());
        }
    }

    /**
     * The cases of {@code variants} (Java's names; empty: every Java variant) at {@code preset},
     * each once per sender the catalog gives it, narrowed to {@code senders} when not empty.
     */
    static List<Case> cases(ExperimentSpec spec, List<String> variants, List<String> senders, String preset) {
        Preset at = Preset.valueOf(preset.toUpperCase(Locale.ROOT));
        List<String> java = spec.variantsIn(Language.JAVA);
        for (String v : variants) {
            if (!java.contains(v)) {
                throw new UsageException("run messaging: unknown variant '" + v + "' (choose from " + String.join(", ", java)
                        + ")");
            }
        }
        long capacity = param(spec, "capacity").longAt(at);
        List<Case> cases = new ArrayList<>();
        for (String javaName : java) {
            String name = spec.variantName(Language.JAVA, javaName);
            VariantSpec variant = spec.variant(name).orElseThrow();
            // named ones run as asked; by default those the catalog runs at the preset
            if (variants.isEmpty() ? !variant.runsAt(at) : !variants.contains(javaName)) {
                continue;
            }
            String countParam = name.equals("serde") ? "stock_count" : "count";
            long messages = ((Number) fixedOr(spec, variant, countParam, at).getFirst()).longValue();
            for (Object sender : fixedOr(spec, variant, "sender", at)) {
                if (senders.isEmpty() || senders.contains(String.valueOf(sender))) {
                    cases.add(new Case(name, javaName, String.valueOf(sender), capacity, countParam, messages));
                }
            }
        }
        return cases;
    }

    /** The values of {@code param} for {@code variant} at {@code at}: the variant's fixed value, else the experiment's. */
    private static List<Object> fixedOr(ExperimentSpec spec, VariantSpec variant, String param, Preset at) {
        Object fixed = variant.params().get(param);
        if (fixed != null) {
            return fixed instanceof List<?> list ? List.copyOf(list) : List.of(fixed);
        }
        return param(spec, param).valuesAt(at);
    }

    private static ParamSpec param(ExperimentSpec spec, String name) {
        return spec.param(name).orElseThrow(() -> new CatalogException("experiments/messaging.toml has no param `" + name
                + "`"));
    }

    /** {@code run messaging [--smoke|--quick|--full] [--json] [--plan] [--variants V,..] [--senders S,..] [--runs R] [--cores P,C]}. */
    static void run(String[] argv) throws IOException, InterruptedException {
        Args args = new Args("run messaging", argv, 2, Set.of("variants", "senders", "runs", "cores"),
                Set.of("smoke", "quick", "full", "json", "plan"));
        args.expectPositional(0);
        String preset = IpcExperiment.preset("run messaging", args);
        List<String> variants = list(args.string("variants", ""));
        List<String> senders = list(args.string("senders", ""));
        for (String s : senders) {
            if (!s.equals("same-language") && !s.equals("other-language")) {
                throw new UsageException("run messaging: --senders " + s + ": use same-language (Java to Java) or"
                        + " other-language (Rust to Java)");
            }
        }
        List<Case> cases = cases(Catalog.fromProperty().experiment("messaging"), variants, senders, preset);
        if (args.flag("plan")) {
            cases.forEach(c -> System.out.println(c.planJson()));
            return;
        }
        // One run a case at quick (compare repeats it in each of its rounds), as Rust's.
        int runs = (int) args.longOption("runs", 1, 1000, switch (preset) {
            case "smoke", "quick" -> 1;
            case "full" -> 5;
            default -> 3;
        });
        Cores cores = Cores.parse("run messaging", args.string("cores", "")).checked("run messaging");
        Path sympathy = null;
        if (cases.stream().anyMatch(c -> c.producer().equals("rust"))) {
            try {
                sympathy = SympathyBinary.find(IpcExperiment.repositoryRoot());
            } catch (SympathyBinary.Unavailable e) {
                if (!senders.isEmpty() || !variants.isEmpty()) {
                    throw new IllegalStateException("the Rust senders need the Rust side: " + e.getMessage(), e);
                }
                System.err.println("note: messaging's other-language cases skipped: the Rust side is unavailable: "
                        + e.getMessage());
                cases = cases.stream().filter(c -> !c.producer().equals("rust")).toList();
            }
        }
        measure(cases, runs, cores, preset, sympathy, new Output(args.flag("json")));
    }

    /**
     * Warm-up rounds of the receiver and of a Java sender at {@code preset} (more while the JIT
     * still compiles): none at smoke, which checks the plumbing, else 4, as Rust's
     * {@code messaging::java_warmup} gives a Java sender.
     */
    static int warmupRounds(String preset) {
        return preset.equals("smoke") ? 0 : 4;
    }

    private static List<String> list(String csv) {
        return csv.isBlank() ? List.of() : Arrays.stream(csv.split(",")).map(String::trim).toList();
    }

    /** Every case's run 0, then every case's run 1, ...; then each case's results and its ratio to raw. */
    private static void measure(List<Case> cases, int runs, Cores cores, String preset, Path sympathy, Output out)
            throws IOException, InterruptedException {
        out.line("# messaging: " + runs + " runs per case, the cases alternating run by run, sender on core "
                + cores.producer() + ", receiver on core " + cores.consumer());
        double[][] rates = new double[cases.size()][runs];
        double[][] bytes = new double[cases.size()][runs];
        Set<String> warm = new HashSet<>();
        int warmup = warmupRounds(preset);
        for (int run = 0; run < runs; run++) {
            for (int k = 0; k < cases.size(); k++) {
                Case c = cases.get(k);
                if (warm.add(c.wire())) {
                    Cores.onPinnedThread("run messaging", "warm-up", cores.consumer(), () -> {
                        MessagingWarmup.run(c.wire(), "ffm", warmup);
                        return null;
                    });
                }
                double[] outcome = once(c, run, cores, sympathy, warmup);
                rates[k][run] = outcome[0];
                bytes[k][run] = outcome[1];
                out.line(String.format("%d - %s: msgs/s=%s bytes=%.1f", run, c.label(), Output.human(outcome[0]),
                        outcome[1]));
            }
        }
        for (int k = 0; k < cases.size(); k++) {
            Case c = cases.get(k);
            Map<String, Object> params = c.params();
            params.put("cores", cores.label());
            params.put("preset", preset);
            params.put("pinning", "pinned");
            params.put("jvm_args", String.join(" ", ChildJvm.jvmArgs()));
            // the format parity fact, in Rust's words: java.io's stream is not serde's postcard
            final Map<String, Object> facts = Map.of("pinned", true, "format", c.format());
            out.result("messaging", c.javaName(), params, "msgs_per_sec", "msgs/s", Stats.of(rates[k]), "ok", facts);
            out.result("messaging", c.javaName(), params, "encoded_bytes", "bytes", Stats.of(bytes[k]), "n/a", facts);
        }
        for (int k = 0; k < cases.size(); k++) {
            Case c = cases.get(k);
            int raw = -1;
            for (int j = 0; j < cases.size(); j++) {
                if (cases.get(j).variant().equals("raw") && cases.get(j).sender().equals(c.sender())) {
                    raw = j;
                }
            }
            if (raw < 0 || raw == k) {
                continue;
            }
            double[] ratios = new double[runs];
            for (int run = 0; run < runs; run++) {
                ratios[run] = rates[k][run] / rates[raw][run];
            }
            Stats r = Stats.of(ratios);
            out.line(String.format("ratio %s / raw (%s, same round): median %.2f (min %.2f .. max %.2f, %d rounds)",
                    c.javaName(), c.sender(), r.median(), r.min(), r.max(), r.runs()));
        }
    }

    /** One run on a fresh ring: returns {messages per second, mean bytes per message}. */
    private static double[] once(Case c, int run, Cores cores, Path sympathy, int warmup)
            throws IOException, InterruptedException {
        Path file = BenchCommands.scratchDir().resolve("sympathy-run-messaging-" + ProcessHandle.current().pid() + "-"
                + run + "-" + System.nanoTime() + ".ring");
        try (RingFile ring = RingFile.create(file, c.capacity())) {
            Process sender = c.producer().equals("java")
                    ? ChildJvm.start(List.of("publish", file.toString(), "--encoding", c.wire(), "--count",
                            Long.toString(c.messages()), "--core", Integer.toString(cores.producer()), "--timeout-ms",
                            "30000", "--warmup", Integer.toString(warmup)))
                    : SympathyBinary.startPeer(sympathy, List.of("publisher", file.toString(), "--encoding", c.wire(),
                            "--count", Long.toString(c.messages()), "--core", Integer.toString(cores.producer())));
            ReceiveLoop receive = new ReceiveLoop();
            receive.count = c.messages();
            // A child JVM starts and warms up its sender (a few seconds) before the first message.
            receive.timeoutMs = 120_000;
            try {
                Cores.onPinnedThread("run messaging", "receiver", cores.consumer(), () -> {
                    receive.run(ring, MessageWire.create("run messaging", c.wire()));
                    return null;
                });
            } catch (RuntimeException | Error e) {
                sender.destroy();
                throw e;
            }
            ChildJvm.finish(sender, c.producer().equals("java") ? "Java sender" : "Rust sender");
            return new double[] {(c.messages() - 1) / (receive.elapsedNanos / 1e9), receive.bytes / (double) c.messages()};
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * {@code publish PATH --encoding W --count N [--impl ffm|jni] [--core C] [--warmup ROUNDS] [--timeout-ms M]}:
     * the sender process of a messaging run (of either language's receiver). With {@code --core} it
     * first warms its loops up ({@link MessagingWarmup}, 4 rounds unless {@code --warmup} says otherwise).
     */
    static void publish(String[] argv) throws IOException, InterruptedException {
        Args args = new Args("publish", argv, 1, Set.of("encoding", "count", "impl", "core", "warmup", "timeout-ms"),
                Set.of());
        Path path = Path.of(args.positional(0, "PATH (the ring file)"));
        args.expectPositional(1);
        String encoding = args.string("encoding", "");
        MessageWire.create("publish", encoding); // names the encodings for an unknown one
        String impl = args.string("impl", "ffm");
        PublishLoop loop = new PublishLoop();
        loop.count = args.requiredLong("count", 1, Long.MAX_VALUE);
        loop.timeoutMs = args.longOption("timeout-ms", 1, Long.MAX_VALUE, 30_000);
        boolean pinned = args.flag("core");
        int rounds = (int) args.longOption("warmup", 0, 1000, pinned ? 4 : 0);
        java.util.concurrent.Callable<Void> body = () -> {
            MessagingWarmup.run(encoding, impl, rounds);
            try (RingFile ring = RingFile.open(path, java.time.Duration.ofMillis(loop.timeoutMs))) {
                loop.run(ring, MessageWire.create("publish", encoding), impl);
            }
            return null;
        };
        if (pinned) {
            Cores.onPinnedThread("publish", "sender", (int) args.longOption("core", 0, 4096, 0), body);
            return;
        }
        try {
            body.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("publish: " + e, e);
        }
    }
}
