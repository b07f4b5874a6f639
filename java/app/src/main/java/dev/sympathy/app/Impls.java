package dev.sympathy.app;

import java.util.List;

/**
 * The implementations {@code --impl} can name. {@code jni} is the Rust ring through the
 * {@code native} module (needs libsympathy_jni on {@code java.library.path}; java/sidecar sets it).
 */
final class Impls {
    private Impls() {}

    /** Names accepted today, in the order help lists them. */
    static final List<String> NAMES = List.of("ffm", "jni", "agrona");

    static RingImpl byName(String command, String name) {
        return switch (name) {
            case "ffm" -> new FfmImpl();
            case "agrona" -> new AgronaImpl();
            case "jni" -> new JniImpl();
            default -> throw new UsageException(command + ": unknown --impl '" + name + "' (choose one of "
                    + String.join(", ", NAMES) + ")");
        };
    }
}
