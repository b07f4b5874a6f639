package dev.sympathy.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sympathy.jmh.support.Pinning;
import org.junit.jupiter.api.Test;

/** Without the native module on the class path, pinning says so instead of pretending. */
class PinningTest {
    @Test
    void shouldReportUnpinnedWhenNoNativeHookIsPresent() {
        assertEquals("unpinned", Pinning.mode());
        Pinning.pin(0); // a no-op, not an error
    }
}
