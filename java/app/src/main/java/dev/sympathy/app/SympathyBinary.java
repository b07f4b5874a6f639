package dev.sympathy.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Rust {@code sympathy} binary, the Rust peer of {@code run ipc}: {@code $SYMPATHY_BIN} when
 * set, else {@code <root>/target/release/sympathy}, built with cargo ({@code cargo build --release
 * -p sympathy-cli}) when it is missing or older than a Rust source, a Cargo manifest or a catalog
 * file of the checkout (the catalog is compiled into it), as java/sidecar builds the JNI library.
 *
 * <pre>{@code
 * Path sympathy = SympathyBinary.find(Path.of("/repo"));  // builds it when stale
 * }</pre>
 */
final class SympathyBinary {
    private SympathyBinary() {}

    /** Why the Rust side cannot run here, with what to do. */
    static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    /** The binary, built first when stale; {@link Unavailable} says why there is none. */
    static Path find(Path root) throws Unavailable, IOException, InterruptedException {
        String explicit = System.getenv("SYMPATHY_BIN");
        if (explicit != null && !explicit.isBlank()) {
            Path bin = Path.of(explicit);
            if (!Files.isExecutable(bin)) {
                throw new Unavailable("SYMPATHY_BIN=" + explicit + " is not an executable file");
            }
            return bin;
        }
        Path bin = root.resolve("target/release/sympathy");
        if (!stale(root, bin)) {
            return bin;
        }
        if (!Files.isRegularFile(root.resolve("Cargo.toml"))) {
            throw new Unavailable(root + " holds no Cargo.toml to build target/release/sympathy from; set SYMPATHY_BIN");
        }
        Process cargo;
        try {
            cargo = new ProcessBuilder(List.of("cargo", "build", "--release", "-q", "-p", "sympathy-cli",
                    "--manifest-path", root.resolve("Cargo.toml").toString()))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            throw new Unavailable("cargo is needed to build " + bin + " (" + e.getMessage() + "); install Rust, or set"
                    + " SYMPATHY_BIN to a built sympathy binary");
        }
        if (cargo.waitFor() != 0 || !Files.isExecutable(bin)) {
            throw new Unavailable("building " + bin + " failed (cargo build --release -p sympathy-cli, output above)");
        }
        return bin;
    }

    /**
     * Starts {@code sympathy run ipc-peer ARGS}, the Rust end of a cross-language run ({@code
     * producer} for ipc, {@code publisher} for messaging): its stdout discarded, its stderr on this
     * process's.
     *
     * <pre>{@code
     * Process peer = SympathyBinary.startPeer(sympathy, List.of("producer", ring.toString(), "--count", "1000"));
     * }</pre>
     */
    static Process startPeer(Path sympathy, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(sympathy.toString(), "run", "ipc-peer"));
        command.addAll(args);
        return new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    /** Whether {@code bin} is missing or older than a source it is built from. */
    private static boolean stale(Path root, Path bin) throws IOException {
        if (!Files.isExecutable(bin)) {
            return true;
        }
        FileTime built = Files.getLastModifiedTime(bin);
        for (String dir : List.of("crates", "experiments")) {
            Path top = root.resolve(dir);
            if (!Files.isDirectory(top)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(top)) {
                boolean newer = files.filter(f -> !f.toString().contains("/target/"))
                        .filter(f -> f.toString().endsWith(".rs") || f.toString().endsWith(".toml"))
                        .anyMatch(f -> modified(f).compareTo(built) > 0);
                if (newer) {
                    return true;
                }
            }
        }
        return false;
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
