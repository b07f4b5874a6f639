package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How big a run is, the same four presets as the Rust harness: {@code smoke} (CI: plumbing only,
 * tiny sizes), {@code quick} (seconds per benchmark), {@code default}, {@code full} (the seeds'
 * sizes). Every catalog param has a value at each ({@link ParamSpec#at}); the result param
 * {@code preset} holds {@link #label()}, and so does the catalog where it names a preset
 * ({@code skip_at = ["quick"]}).
 *
 * <pre>{@code
 * Preset.fromFlag("--quick")  // Optional[QUICK]
 * Preset.QUICK.label()        // "quick"
 * }</pre>
 */
public enum Preset {
    /** {@code --smoke}. */
    @JsonProperty("smoke")
    SMOKE,
    /** {@code --quick}. */
    @JsonProperty("quick")
    QUICK,
    /** No flag. */
    @JsonProperty("default")
    DEFAULT,
    /** {@code --full}. */
    @JsonProperty("full")
    FULL;

    /** The lower-case name: the TOML key of its values and the result param {@code preset}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The command-line flag that picks it ({@code --smoke}); none for {@link #DEFAULT}. */
    public Optional<String> flag() {
        return this == DEFAULT ? Optional.empty() : Optional.of("--" + label());
    }

    /** The preset a command-line flag picks, if it is one of {@code --smoke}, {@code --quick}, {@code --full}. */
    public static Optional<Preset> fromFlag(String flag) {
        return Arrays.stream(values()).filter(p -> p.flag().filter(flag::equals).isPresent()).findFirst();
    }
}
