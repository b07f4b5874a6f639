package dev.sympathy.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts another sidecar command in a separate JVM (same JDK, class path and flags), so the
 * benchmarks run producer and consumer in separate processes as real peers do.
 */
final class ChildJvm {
    /**
     * The system property holding the launcher's latency flags (java/launcher.sh's
     * {@code launcher_latency_jvm_flags}), which this JVM was started with.
     */
    static final String JVM_ARGS_PROPERTY = "sympathy.jvm_args";

    private ChildJvm() {}

    /**
     * The flags this JVM passes on to a child beyond what it needs to run (the launcher's latency
     * flags, then {@code SIDECAR_JVM_OPTS}, which java/sidecar gives this JVM too); empty when
     * run without the launcher. {@code run ipc}'s results carry them as {@code jvm_args}.
     *
     * <pre>{@code
     * ChildJvm.jvmArgs()  // [-XX:+UseSerialGC, -XX:-UsePerfData, ...] under java/sidecar
     * }</pre>
     */
    static List<String> jvmArgs() {
        List<String> flags = new ArrayList<>(split(System.getProperty(JVM_ARGS_PROPERTY)));
        flags.addAll(split(System.getenv("SIDECAR_JVM_OPTS")));
        return flags;
    }

    private static List<String> split(String flags) {
        return flags == null || flags.isBlank() ? List.of() : List.of(flags.trim().split("\\s+"));
    }

    /** Starts {@code sidecar args...}; stdout is piped to the caller, stderr inherited. */
    static Process start(List<String> args) throws IOException {
        return start(List.of(), args);
    }

    /**
     * As {@link #start(List)}, the JVM's command line run by the command {@code prefix} (empty:
     * none), e.g. {@code [ip, netns, exec, NS]}: a child on another network namespace (run
     * bridge's veth hosts). The prefix must exec the JVM in its own process, so that the child's
     * pid, signals and exit status are the JVM's.
     *
     * <pre>{@code
     * ChildJvm.start(List.of("ip", "netns", "exec", "sym42-a"), List.of("bridge", "send", ...));
     * }</pre>
     */
    static Process start(List<String> prefix, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("--add-exports");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        String libraryPath = System.getProperty("java.library.path");
        if (libraryPath != null) {
            command.add("-Djava.library.path=" + libraryPath); // where --impl jni finds the Rust ring
        }
        String experiments = System.getProperty("sympathy.experiments");
        if (experiments != null) {
            command.add("-Dsympathy.experiments=" + experiments); // the experiment catalog's folder
        }
        String latency = System.getProperty(JVM_ARGS_PROPERTY);
        if (latency != null) {
            command.add("-D" + JVM_ARGS_PROPERTY + "=" + latency); // so that its own children get them too
        }
        command.addAll(jvmArgs());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Sidecar.class.getName());
        command.addAll(args);
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Waits for the child and returns its stdout; a non-zero exit is an error naming it. */
    static String finish(Process child, String what) throws IOException, InterruptedException {
        String out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int rc = child.waitFor();
        if (rc != 0) {
            throw new IllegalStateException(what + " process failed with exit status " + rc + " (see its message above)");
        }
        return out;
    }

    /** The value of a {@code name=value} line in a child's output. */
    static long value(String output, String name, String what) {
        for (String line : output.split("\n")) {
            if (line.startsWith(name + "=")) {
                return Long.parseLong(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException(what + " process printed no " + name + "= line");
    }
}
