package dev.sympathy.jni;

/**
 * Thread pinning for Java, which cannot pin threads itself: the Rust side (core_affinity via
 * sympathy_harness::pin) sets the calling thread's affinity and verifies it. The JMH module's
 * {@code support/Pinning} finds this class by name.
 */
public final class Affinity {
    private Affinity() {}

    /**
     * Pins the calling thread to {@code core}.
     *
     * @throws IllegalStateException if the core does not exist or the pin did not take
     */
    public static void pinCurrentThread(int core) {
        NativeRing.pin(core);
    }
}
