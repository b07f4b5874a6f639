package dev.sympathy.jmh.instructions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Every Java kernel of the instruction-count gate runs its hot path once per message, checked. */
class KernelsTest {
    @Test
    void shouldRunEveryKernelOnAFreshInputAndPassItsCheck() {
        assertEquals(16, Kernels.ids().size());
        for (String id : Kernels.ids()) {
            final Kernel<?> kernel = Kernels.byId(id);
            assertEquals(id, kernel.id());
            kernel.runChecked(1);
            kernel.runChecked(3000); // beyond a small ring's or queue's first wrap point, were it sized wrong
        }
    }

    @Test
    void shouldReturnWhatTheRustTwinsReturn() {
        assertEquals(7 * 100, Kernels.byId("ring/read/256b").runChecked(100), "first bytes (7) added up");
        assertEquals(99 * 100 / 2, Kernels.byId("queue/poll/u32-offheap").runChecked(100), "0 + 1 + ... + 99");
        assertEquals(192, Kernels.byId("serialization/encode/sbe").runChecked(10), "header and block");
        assertEquals(999 * 1000 / 2, Kernels.byId("queue/poll/u32-batch").runChecked(1000),
                "0 + 1 + ... + 999, in batches of 256");
    }

    @Test
    void shouldRefuseAnUnknownId() {
        assertThrows(IllegalArgumentException.class, () -> Kernels.byId("serialization/encode/serde-binary"));
    }

    @Test
    void shouldSizeRingsAndQueuesForEveryMessage() {
        assertEquals(4096, Kernels.ringCapacity(1, 256), "room for a 256-byte message (a ring takes capacity / 8)");
        assertEquals(1 << 23, Kernels.ringCapacity(20_000, 256), "20000 records of 264 bytes");
        assertEquals(2, Kernels.queueCapacity(1));
        assertEquals(16_384, Kernels.queueCapacity(10_000));
        assertEquals(1024, Kernels.queueCapacity(1024));
    }
}
