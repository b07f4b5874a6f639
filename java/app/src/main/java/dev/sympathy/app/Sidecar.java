package dev.sympathy.app;

import dev.sympathy.ring.RingException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.Arrays;

/**
 * The Java sidecar: the Java side of {@code sympathy ipc}. Run it with {@code java/sidecar}.
 *
 * <pre>
 * java/sidecar create PATH --capacity BYTES
 * java/sidecar produce PATH --count N --size S|MIN..MAX [--type T] [--impl ffm|agrona]
 * java/sidecar consume PATH --count N [--timeout-ms M] [--impl ffm|agrona]
 * java/sidecar inspect PATH
 * java/sidecar bench --size S --count N [--impl X | --producer X --consumer Y] [--runs R] [--json]
 * java/sidecar latency --size S --count N [--impl X] [--runs R] [--json]
 * </pre>
 *
 * Exit status: 0 success, 1 a failure (ring error, bad message, dead peer), 2 a bad command line.
 */
public final class Sidecar {
    private Sidecar() {}

    static final String USAGE = """
            usage: sidecar <command> [options]
              create PATH --capacity BYTES             create a ring file (capacity: power of two)
              produce PATH --count N --size S|MIN..MAX write N test messages
                      [--type T] [--seed X] [--impl ffm|agrona] [--timeout-ms M]
                      [--halt-after K]  (test hook: exit abruptly after K messages, like a kill)
              consume PATH --count N                   read and verify N test messages
                      [--type T] [--impl ffm|agrona] [--timeout-ms M]
              inspect PATH                             print the header and positions
              bench --size S --count N                 throughput, producer and consumer in separate JVMs
                      [--impl X | --producer X --consumer Y] [--runs R] [--capacity B] [--json]
              latency --size S --count N               round trip over two rings (echo in a separate JVM)
                      [--impl X] [--runs R] [--capacity B] [--json]
            implementations: ffm (pure Java, FFM), agrona (Agrona's OneToOneRingBuffer)
            exit status: 0 ok, 1 failure, 2 bad command line""";

    public static void main(String[] argv) {
        System.exit(run(argv));
    }

    /** Runs one command; returns the exit status. */
    static int run(String[] argv) {
        if (argv.length == 0 || Arrays.asList("help", "--help", "-h").contains(argv[0])) {
            System.out.println(USAGE);
            return argv.length == 0 ? 2 : 0;
        }
        String command = argv[0];
        try {
            switch (command) {
                case "create" -> RingCommands.create(argv);
                case "produce" -> RingCommands.produce(argv);
                case "consume" -> RingCommands.consume(argv);
                case "inspect" -> RingCommands.inspect(argv);
                case "echo" -> RingCommands.echo(argv);
                case "bench" -> BenchCommands.bench(argv);
                case "latency" -> BenchCommands.latency(argv);
                default -> throw new UsageException("unknown command '" + command + "'\n" + USAGE);
            }
            return 0;
        } catch (UsageException e) {
            System.err.println("sidecar: " + e.getMessage());
            return 2;
        } catch (RingException | PatternMismatchException | ConsumeLoop.Incomplete | IllegalStateException e) {
            System.err.println("sidecar " + command + ": " + e.getMessage());
            return 1;
        } catch (FileAlreadyExistsException e) {
            System.err.println("sidecar " + command + ": " + e.getFile() + " already exists; remove it first"
                    + " (a ring file is never overwritten: a peer may have it mapped)");
            return 1;
        } catch (IOException e) {
            System.err.println("sidecar " + command + ": " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("sidecar " + command + ": interrupted");
            return 1;
        }
    }
}
