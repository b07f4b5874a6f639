package dev.sympathy.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What a parameter describes ({@code role = "work"} or {@code "runner"}). */
public enum Role {
    /** The work itself (a size, a count of threads): a Rust and a Java result pair only when these match. */
    @JsonProperty("work")
    WORK,
    /** How one language ran it (a loop length, repetitions): shown, never part of pairing. */
    @JsonProperty("runner")
    RUNNER
}
