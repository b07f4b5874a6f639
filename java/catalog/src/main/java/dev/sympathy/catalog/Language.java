package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;

/** A language an experiment's variant runs in ({@code languages = ["rust", "java", "c"]}). */
public enum Language {
    /** Rust, under {@code sympathy run} and criterion. */
    @JsonProperty("rust")
    RUST,
    /** Java, under JMH ({@code java/sidecar run}). */
    @JsonProperty("java")
    JAVA,
    /** The C reference kernels, run by the Rust side through FFI. */
    @JsonProperty("c")
    C;

    /** The name in result records: {@code Language.JAVA.label()} is {@code "java"}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
