package dev.sympathy.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code sidecar run map-service ...}: the map-service experiment with the Java server. Its
 * harness (the map of users, wrk, the checks, the results) is one program for both servers,
 * {@code sympathy run map-service} (crates/cli/src/run/map_service.rs), so the Java and Rust rows
 * differ only in the server: this runs it with {@code --server java}, which starts
 * {@code java/sidecar serve-map} ({@link MapService}) and reports {@code "language":"java"}.
 *
 * <pre>
 * java/sidecar run map-service [--smoke|--quick|--full] [--json] [--plan] [--variants http-hit,http-miss]
 * </pre>
 */
final class MapServiceExperiment {
    private MapServiceExperiment() {}

    /** Runs the Rust harness with {@code --server java}; returns its exit status. */
    static int run(String[] argv) throws IOException, InterruptedException {
        Path sympathy;
        try {
            sympathy = SympathyBinary.find(IpcExperiment.repositoryRoot());
        } catch (SympathyBinary.Unavailable e) {
            throw new IllegalStateException("run map-service needs the Rust harness: " + e.getMessage());
        }
        List<String> command = new ArrayList<>(List.of(sympathy.toString(), "run", "map-service"));
        command.addAll(Arrays.asList(argv).subList(2, argv.length));
        command.addAll(List.of("--server", "java"));
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
