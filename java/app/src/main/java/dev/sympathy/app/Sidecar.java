package dev.sympathy.app;

import dev.sympathy.bridge.BridgeException;
import dev.sympathy.map.MapException;
import dev.sympathy.map.user.UserCodecException;
import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java sidecar: the Java side of {@code sympathy ring} (the ring file's tools) and of
 * {@code sympathy run ipc} (the ipc experiment). Run it with {@code java/sidecar}.
 *
 * <pre>
 * java/sidecar create PATH --capacity BYTES [--kind spsc|mpsc|broadcast]
 * java/sidecar produce PATH --count N --size S|MIN..MAX [--type T] [--impl ffm|jni|agrona] [--claim]
 * java/sidecar consume PATH --count N [--timeout-ms M] [--impl ffm|jni|agrona] [--json]
 * java/sidecar inspect PATH
 * java/sidecar bench --size S --count N [--impl X[,Y..] | --producer X --consumer Y] [--runs R] [--cores P,C] [--json]
 * java/sidecar latency --size S --count N [--impl X] [--runs R] [--cores P,C] [--json]
 * java/sidecar run ipc [--smoke|--quick|--full] [--json] [--plan] [--variants V,..] [--runs R] [--cores P,C]
 * java/sidecar map create|copy|load-users|verify-users|watch-users|get|inspect|layout|stress-write|stress-read ...
 * java/sidecar serve-map PATH --port P
 * java/sidecar run messaging [--smoke|--quick|--full] [--json] [--plan] [--variants V,..] [--senders S,..]
 * java/sidecar bridge send|receive RING --channel C --confirm-channel K [...]
 * java/sidecar publish PATH --encoding W --count N [--impl ffm|jni] [--core C]
 * java/sidecar COMMAND --help
 * </pre>
 *
 * Exit status: 0 success, 1 a failure (ring error, bad message, dead peer), 2 a bad command line,
 * 3 the ring's mapped memory failed under it (SIGBUS: the file truncated while mapped, or its
 * filesystem out of space), as {@code sympathy ring} exits.
 */
public final class Sidecar {
    private Sidecar() {}

    /** The exit status after a fault in a mapped ring access (the Rust CLI's SIGBUS status). */
    static final int MAPPED_FAULT_EXIT = 3;

    /** Each command's usage, in the order help lists them (echo is internal to latency). */
    static final Map<String, String> COMMANDS = commands();

    /**
     * The top-level verbs, the same as {@code sympathy --help} lists (a test compares the two
     * trees): {@code ring}'s verbs and {@code map}'s are the commands of those groups;
     * {@code compare} is the Rust command's, which starts the Java side itself.
     */
    static final List<String> VERBS = List.of("run", "compare", "ring", "map", "serve-map", "bridge");

    /** {@code sidecar ring VERB}: the ring file's tools, as {@code sympathy ring VERB}. */
    static final List<String> RING_VERBS =
            List.of("create", "produce", "consume", "inspect", "layout", "bench", "latency", "jni-cost");

    /** The commands peers run (started by {@code run ipc}, {@code run messaging} and the Rust tests). */
    static final List<String> INTERNAL = List.of("echo", "publish", "sbe-echo");

    private static Map<String, String> commands() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("create", """
                  create PATH --capacity BYTES             create a ring file (capacity: power of two; 64k, 1m ok)
                          [--kind spsc|mpsc|broadcast]  one-to-one (default), many-to-one, or broadcast""");
        c.put("produce", """
                  produce PATH --count N --size S|MIN..MAX write N test messages
                          [--type T] [--seed X] [--impl ffm|jni|agrona] [--timeout-ms M]
                          [--seconds S]     stop after S seconds (then --count is optional: a soak)
                          [--claim]         write each message through tryClaim/commit, filled in place
                          [--writes per-message|batch [--batch B]]  one call per message (default), or
                                            runs of B (256) messages of one size filled in place
                          [--core C]        pin the writing thread to core C
                          [--warmup N]      first run the loops on N messages of a scratch ring (JIT
                                            warm-up; default 1000000 with --core, else 0)
                          [--wait spin|futex]  on a full ring: spin (default) or sleep until the consumer reads (ffm)
                          [--first I]       pattern index of the first message (a restarted producer)
                          [--halt-after K]  (test hook: exit abruptly after K messages, like a kill)
                          [--halt-in-claim-after K]  (test hook: exit abruptly inside the claim of message K)
                          on an mpsc ring: one of any number of producers (each its own --type);
                          on a broadcast ring: the transmitter, never waiting (slow receivers are lapped)""");
        c.put("consume", """
                  consume PATH --count N                   read and verify N test messages; consumes exactly
                                                           those verified (a bad one stays at the head)
                          [--type T] [--impl ffm|jni|agrona] [--timeout-ms M]
                          [--first I|auto]  pattern index of the first message (a restarted consumer);
                                            auto: the first message's own index (its first 8 bytes)
                          [--until-detached]  read until the producer detaches (then --count is optional)
                          [--producer-restarts]  wait for the next producer when one leaves (a restarted
                                            bridge receive); only --timeout-ms without a message ends it
                          [--core C]        pin the reading thread to core C
                          [--warmup N]      as produce's (default 1000000 with --core, else 0)
                          [--wait spin|futex]  on an empty ring: spin (default) or sleep until a write (ffm)
                          [--json [--producer LABEL]]  throughput (first message to last) as a results line
                          on an mpsc ring: [--producers P]  types 1..P are P streams, each from --first
                                           [--unblock-after-ms MS]  unblock a claim that stalls the head (1000)
                          on a broadcast ring: a copy receiver from the latest record, until it has the
                                           stream's last message (index --first + N - 1; a late or
                                           lapped receiver gets fewer); [--no-laps]  a lap fails""");
        c.put("inspect", """
                  inspect PATH [--timeout-ms M]            print the header (and kind) and positions""");
        c.put("layout", """
                  layout                                   the descriptor as NAME=value lines (as `sympathy ring layout`)""");
        c.put("bench", """
                  bench --size S --count N                 throughput, producer and consumer in separate JVMs
                          [--impl X[,Y..] | --producer X --consumer Y] [--runs R] [--capacity B] [--dir D]
                          [--cores P,C] [--writes per-message|batch [--batch B]] [--json]
                          --impl ffm,agrona alternates the implementations run by run and prints
                          each one's per-round ratio to the first; ends pinned to cores P,C (0,1);
                          --writes batch: the producer writes runs of B (256) messages filled in
                          place (ffm: writeBatch, jni: one native batch; Agrona, which has no
                          batch write, claims and commits each message in place)""");
        c.put("latency", """
                  latency --size S --count N               round trip over two rings (echo in a separate JVM)
                          [--impl X] [--runs R] [--capacity B] [--dir D] [--cores P,C] [--json]""");
        c.put("run", """
                  run ipc [--smoke|--quick|--full]         the ipc experiment (experiments/ipc.toml) in Java:
                          [--json] [--plan]                ring, echo, ring-cross (a Rust producer),
                          [--variants V,..] [--runs R]     echo-cross-ffm, echo-cross-jni (a Rust echo);
                          [--cores P,C]                    --plan prints what it would report
                  run messaging [--smoke|--quick|--full]   the messaging experiment (experiments/messaging.toml)
                          [--json] [--plan]                in Java: price updates received and decoded per
                          [--variants V,..] [--senders S,..]  second (raw, sbe, struct, byte-buffer,
                          [--runs R] [--cores P,C]         java-serialization), sent by a Java or a Rust process
                  run bridge [--smoke|--quick|--full]      the bridge experiment (experiments/bridge.toml) in Java:
                          [--json] [--plan]                ring -> Aeron -> ring with Java ring ends, and Aeron
                          [--variants V,..] [--transports T,..]  alone, over ipc, udp, veth (root)""");
        c.put("publish", """
                  publish PATH --encoding W --count N       the sender of a messaging run: N price updates
                          [--impl ffm|jni] [--core C]      (raw, sbe, struct, hand-codec, java-serialization)
                          [--warmup ROUNDS] [--timeout-ms M]  in place into an existing ring""");
        c.put("sbe-echo", """
                  sbe-echo                                 decode [u32 length][SBE message] records from stdin
                                                           into values, encode them again to stdout (the
                                                           cross-language round trip of the Rust tests)""");
        c.put("map", MapCommands.USAGE);
        c.put("serve-map", MapService.USAGE);
        c.put("bridge", BridgeCommands.USAGE);
        c.put("jni-cost", """
                  jni-cost [--size S] [--count N]          ns per message through JNI: one write per call,
                          [--batch B] [--runs R] [--json]  --batch writes per call, one claim + commit""");
        return c;
    }

    private static final String FOOTER = """
            compare: the Rust command's (`cargo run --release -- compare`), which starts the Java side itself
            internal: echo, publish, sbe-echo (peers of run ipc, run messaging and the Rust tests)
            implementations: ffm (pure Java, FFM), jni (the Rust ring through JNI),
                             agrona (Agrona's OneToOneRingBuffer)
            exit status: 0 ok, 1 failure, 2 bad command line, 3 the ring file failed under its mapping
                         (truncated, or its filesystem full: SIGBUS)""";

    static final String USAGE = "usage: sidecar <command> [options]   (sidecar <command> --help for one)\n"
            + "commands: " + String.join(", ", VERBS) + "\n"
            + "  ring <verb>: the ring file (" + String.join(", ", RING_VERBS) + "), as `sympathy ring`\n"
            + String.join("\n", COMMANDS.entrySet().stream().filter(e -> RING_VERBS.contains(e.getKey()))
                    .map(e -> indent(indent(ringUsage(e.getKey())))).toList()) + "\n"
            + String.join("\n", COMMANDS.entrySet().stream()
                    .filter(e -> !RING_VERBS.contains(e.getKey()) && !INTERNAL.contains(e.getKey()))
                    .map(e -> indent(e.getValue())).toList()) + "\n" + FOOTER;

    /** A ring verb's usage as {@code ring VERB ...}, its continuation lines kept in line. */
    private static String ringUsage(String verb) {
        return "ring " + COMMANDS.get(verb).strip().replace("\n", "\n   ");
    }

    /** The usage of one command. */
    static String usage(String command) {
        return "usage: sidecar " + command + " [options]\n" + indent(COMMANDS.get(command)) + "\n" + FOOTER;
    }

    private static String indent(String lines) {
        return lines.indent(2).stripTrailing();
    }

    public static void main(String[] argv) {
        System.exit(run(argv));
    }

    /**
     * Whether {@code e} is how the JVM reports a {@code SIGBUS} in an access to a mapped file
     * (a page past a truncated end, or one its full filesystem could not allocate).
     */
    static boolean isMappedAccessFault(InternalError e) {
        String message = e.getMessage();
        return message != null && message.contains("fault occurred") && message.contains("memory access");
    }

    /**
     * {@code sidecar ring VERB ...}: runs the ring command {@code VERB} (the same as
     * {@code sidecar VERB ...}, the older spelling kept for scripts).
     */
    private static int ring(String[] argv) {
        if (argv.length == 1 || Arrays.asList("help", "--help", "-h").contains(argv[1])) {
            System.out.println("usage: sidecar ring <verb> [options]   (as `sympathy ring`)\n"
                    + String.join("\n", RING_VERBS.stream().map(v -> indent(ringUsage(v))).toList())
                    + "\n" + FOOTER);
            return argv.length == 1 ? 2 : 0;
        }
        if (!RING_VERBS.contains(argv[1])) {
            System.err.println("sidecar: ring: unknown verb '" + argv[1] + "' (the ring's verbs: "
                    + String.join(", ", RING_VERBS) + ")");
            return 2;
        }
        return run(Arrays.copyOfRange(argv, 1, argv.length));
    }

    /** Runs one command; returns the exit status. */
    static int run(String[] argv) {
        if (argv.length == 0 || Arrays.asList("help", "--help", "-h").contains(argv[0])) {
            System.out.println(USAGE);
            return argv.length == 0 ? 2 : 0;
        }
        if (argv[0].equals("ring")) {
            return ring(argv);
        }
        String command = argv[0];
        if (COMMANDS.containsKey(command)
                && Arrays.stream(argv, 1, argv.length).anyMatch(a -> a.equals("--help") || a.equals("-h"))) {
            System.out.println(usage(command));
            return 0;
        }
        try {
            switch (command) {
                case "create" -> RingCommands.create(argv);
                case "produce" -> RingCommands.produce(argv);
                case "consume" -> RingCommands.consume(argv);
                case "inspect" -> RingCommands.inspect(argv);
                case "echo" -> RingCommands.echo(argv);
                case "bench" -> BenchCommands.bench(argv);
                case "latency" -> BenchCommands.latency(argv);
                case "jni-cost" -> JniCost.run(argv);
                case "run" -> {
                    // The experiments this jar runs itself (java/sidecar hands the others to JMH).
                    switch (argv.length > 1 ? argv[1] : "") {
                        case "map-service" -> {
                            return MapServiceExperiment.run(argv);
                        }
                        case "messaging" -> MessagingExperiment.run(argv);
                        case "bridge" -> BridgeExperiment.run(argv);
                        default -> IpcExperiment.run(argv);
                    }
                }
                case "map" -> MapCommands.run(argv);
                case "serve-map" -> MapService.run(argv);
                case "bridge" -> BridgeCommands.run(argv);
                case "publish" -> MessagingExperiment.publish(argv);
                case "sbe-echo" -> SbeEcho.run(System.in, System.out);
                case "layout" -> RingDescriptor.constants().forEach((name, value) -> System.out.println(name + "=" + value));
                case "compare" -> throw new UsageException("compare runs both languages and writes one report: it is the"
                        + " Rust command's (`cargo run --release -- compare`), which starts the Java side itself");
                default -> throw new UsageException("unknown command '" + command + "'\n" + USAGE);
            }
            return 0;
        } catch (UsageException e) {
            System.err.println("sidecar: " + e.getMessage());
            return 2;
        } catch (BridgeException e) {
            System.err.println("sidecar " + command + ": " + e.kind() + ": " + e.getMessage());
            return 1;
        } catch (RingException | MapException | UserCodecException | PatternMismatchException | ConsumeLoop.Incomplete
                | IllegalStateException e) {
            System.err.println("sidecar " + command + ": " + e.getMessage());
            return 1;
        } catch (InternalError e) {
            if (!isMappedAccessFault(e)) {
                throw e;
            }
            if (command.equals("map") || command.equals("serve-map")) {
                // map VERB PATH, serve-map PATH
                int at = command.equals("map") ? 2 : 1;
                String file = argv.length > at && !argv[at].startsWith("--") ? argv[at] : null;
                System.err.println("sidecar " + command + ": " + MapCommands.mappedFault(file == null ? null : Path.of(file)));
                return MAPPED_FAULT_EXIT;
            }
            String ring = argv.length > 1 && !argv[1].startsWith("--") ? argv[1] : "the ring file";
            System.err.println("sidecar " + command + ": " + ring + ": the ring's memory became inaccessible"
                    + " (a fault in a mapped access, SIGBUS): the file was truncated or resized while mapped, or"
                    + " its filesystem ran out of space for a page being written. Stop the peers, recreate the"
                    + " ring (`sidecar create`) on a filesystem with room for it (`df`; a container's /dev/shm:"
                    + " `docker run --shm-size`), and never truncate or resize a ring file in use");
            return MAPPED_FAULT_EXIT;
        } catch (NoSuchFileException e) {
            System.err.println("sidecar " + command + ": " + e.getFile() + ": no such file or directory"
                    + " (check the path; the directory of a new ring must exist)");
            return 1;
        } catch (FileAlreadyExistsException e) {
            System.err.println("sidecar " + command + ": " + e.getFile() + " already exists; remove it first"
                    + " (a ring file is never overwritten: a peer may have it mapped)");
            return 1;
        } catch (IOException e) {
            System.err.println("sidecar " + command + ": " + (e.getMessage() != null ? e.getMessage() : e));
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("sidecar " + command + ": interrupted");
            return 1;
        }
    }
}
