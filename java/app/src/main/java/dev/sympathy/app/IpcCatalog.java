package dev.sympathy.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The values of {@code experiments/ipc.toml} (the experiment catalog both languages read) at a
 * preset: the folder comes from the system property {@code sympathy.experiments}, which
 * {@code java/sidecar} sets to {@code <repository>/experiments}.
 *
 * <pre>{@code
 * IpcCatalog catalog = IpcCatalog.load();
 * long count = catalog.longAt("count", "quick");      // 2000000
 * String writes = catalog.stringAt("writes", "quick"); // "per-message"
 * }</pre>
 */
final class IpcCatalog {
    /** The system property naming the catalog folder. */
    static final String PROPERTY = "sympathy.experiments";

    private final Path file;
    private final JsonNode root;

    private IpcCatalog(Path file, JsonNode root) {
        this.file = file;
        this.root = root;
    }

    /** Reads {@code ipc.toml} from the folder in {@link #PROPERTY}. */
    static IpcCatalog load() throws IOException {
        String folder = System.getProperty(PROPERTY, "");
        if (folder.isEmpty()) {
            throw new IllegalStateException("the experiment catalog's folder is not set: run through java/sidecar, or pass -D"
                    + PROPERTY + "=<repository>/experiments");
        }
        return read(Path.of(folder).resolve("ipc.toml"));
    }

    /** Reads one catalog file. */
    static IpcCatalog read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " does not exist (-D" + PROPERTY + " names the catalog folder)");
        }
        return new IpcCatalog(file, new TomlMapper().readTree(file.toFile()));
    }

    /** The catalog folder's repository: the parent of the folder holding this file. */
    Path repositoryRoot() {
        return file.toAbsolutePath().getParent().getParent();
    }

    /** A whole-number param at {@code preset}. */
    long longAt(String param, String preset) {
        JsonNode value = valueAt(param, preset);
        if (!value.canConvertToLong() || !value.isIntegralNumber()) {
            throw new IllegalStateException(file + ": `" + param + "` at " + preset + " is not a whole number: " + value);
        }
        return value.asLong();
    }

    /** A text param at {@code preset}. */
    String stringAt(String param, String preset) {
        JsonNode value = valueAt(param, preset);
        if (!value.isTextual()) {
            throw new IllegalStateException(file + ": `" + param + "` at " + preset + " is not text: " + value);
        }
        return value.asText();
    }

    private JsonNode valueAt(String param, String preset) {
        for (JsonNode p : root.path("params")) {
            if (p.path("name").asText().equals(param)) {
                JsonNode value = p.path(preset);
                if (value.isMissingNode()) {
                    throw new IllegalStateException(file + ": `" + param + "` has no value at preset " + preset);
                }
                return value;
            }
        }
        throw new IllegalStateException(file + " has no param `" + param + "`");
    }
}
