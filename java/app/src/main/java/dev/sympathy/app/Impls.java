package dev.sympathy.app;

import java.util.List;

/**
 * The implementations {@code --impl} can name. The JNI implementation (the Rust ring through
 * the {@code native} module) slots in here as one more {@link RingImpl}.
 */
final class Impls {
    private Impls() {}

    /** Names accepted today, in the order help lists them. */
    static final List<String> NAMES = List.of("ffm", "agrona");

    static RingImpl byName(String command, String name) {
        return switch (name) {
            case "ffm" -> new FfmImpl();
            case "agrona" -> new AgronaImpl();
            case "jni" -> throw new UsageException(command + ": --impl jni is not built yet (the JNI bindings "
                    + "to the Rust ring come with the native module); use ffm or agrona");
            default -> throw new UsageException(command + ": unknown --impl '" + name + "' (choose one of "
                    + String.join(", ", NAMES) + ")");
        };
    }
}
