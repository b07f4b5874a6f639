package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.RingFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The producing loop's two write modes through a 4 KiB ring (hundreds of wrap-arounds, a full
 * ring most of the time), read and verified message by message by a consumer on another thread.
 */
class ProduceLoopTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, {1} bytes, runs of {2}")
    @CsvSource({
        "ffm, 4, 256", "ffm, 37, 7", "ffm, 500, 3", "ffm, 4, 1",
        "agrona, 4, 256", "agrona, 37, 7", "agrona, 500, 3",
    })
    void shouldDeliverEveryMessageOfRunsFilledInPlaceInOrder(String impl, int size, int batch) throws Exception {
        long count = 20_000;
        ConsumeLoop consume = new ConsumeLoop();
        consume.count = count;
        consume.timeoutMs = 30_000;
        ProduceLoop produce = new ProduceLoop();
        produce.count = count;
        produce.timeoutMs = 30_000;
        produce.writes = WriteMode.BATCH;
        produce.batch = batch;
        RingImpl ring = Impls.byName("test", impl);
        try (RingFile file = RingFile.create(dir.resolve(impl + "-" + size + ".ring"), 4096)) {
            RuntimeException[] failed = new RuntimeException[1];
            Thread reader = new Thread(() -> {
                try {
                    consume.run(file, ring);
                } catch (RuntimeException e) {
                    failed[0] = e;
                }
            });
            reader.start();
            long bytes = produce.run(file, ring, SizeSpec.parse("test", Integer.toString(size), 1));
            reader.join();
            if (failed[0] != null) {
                throw failed[0];
            }
            assertEquals(count, produce.written);
            assertEquals(count * size, bytes);
        }
    }

    @Test
    void shouldRefuseRunsOfSeveralSizesOrClaims() throws Exception {
        try (RingFile file = RingFile.create(dir.resolve("refused.ring"), 4096)) {
            ProduceLoop produce = new ProduceLoop();
            produce.count = 10;
            produce.writes = WriteMode.BATCH;
            var sizes = assertThrows(IllegalArgumentException.class,
                    () -> produce.run(file, new FfmImpl(), SizeSpec.parse("test", "4..8", 1)));
            assertTrue(sizes.getMessage().contains("one message size"), sizes.getMessage());
            produce.claim = true;
            assertThrows(IllegalArgumentException.class, () -> produce.run(file, new FfmImpl(), SizeSpec.parse("test", "4", 1)));
        }
    }

    @Test
    void shouldNameTheChoicesOfAnUnknownWriteMode() {
        var e = assertThrows(UsageException.class, () -> WriteMode.parse("bench", "bulk"));
        assertEquals("bench: unknown --writes 'bulk' (choose per-message or batch)", e.getMessage());
    }
}
