package dev.sympathy.jmh.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.jmh.support.Pinning;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** p1c1-ipc's consumer JVM, started for real: it checks every value and the producer learns its verdict. */
class IpcConsumerTest {
    private static final int VALUES = Queues.POOL - 1;

    @Test
    void shouldReceiveEveryValueInAnotherJvm() throws IOException {
        try (P1C1FileQueue queue = P1C1FileQueue.create(1024, P1C1FileQueue.PRODUCER_ROLE)) {
            final IpcConsumer child = IpcConsumer.start(queue, Pinning.availableCore(1), true);
            final long count = 200_000;
            for (long seq = 0; seq < count; seq++) {
                while (!queue.offer((int) (seq & VALUES))) {
                    child.checkAlive();
                    Thread.yield();
                }
            }
            assertEquals(count, child.finish());
        }
    }

    @Test
    void shouldFailTheRunWhenAValueIsOutOfSequence() throws IOException {
        try (P1C1FileQueue queue = P1C1FileQueue.create(64, P1C1FileQueue.PRODUCER_ROLE)) {
            final IpcConsumer child = IpcConsumer.start(queue, Pinning.availableCore(1), true);
            assertTrue(queue.offer(0));
            assertTrue(queue.offer(2));
            final IllegalStateException e = assertThrows(IllegalStateException.class, child::finish);
            assertTrue(e.getMessage().contains("exit status 1"), e.getMessage());
        }
    }

    @Test
    void shouldFailTheRunWhenTheConsumerDies() throws IOException {
        try (P1C1FileQueue queue = P1C1FileQueue.create(64, P1C1FileQueue.PRODUCER_ROLE)) {
            final IpcConsumer child = IpcConsumer.start(queue, Pinning.availableCore(1), true);
            child.checkAlive();
            child.kill();
            final IllegalStateException e = assertThrows(IllegalStateException.class, child::checkAlive);
            assertTrue(e.getMessage().contains("exited"), e.getMessage());
        }
    }

    @Test
    void shouldGiveTheChildThisJvmsFlagsButNoAgentNorExtrasFile() {
        assertEquals(List.of("-Xmx1g", "-XX:+UseSerialGC", "-Djava.library.path=/x"),
                IpcConsumer.childJvmFlags(List.of("-Xmx1g", "-javaagent:a.jar", "-XX:+UseSerialGC", "-Dsympathy.extras=/tmp/e",
                        "-XX:CompileCommandFile=/tmp/c", "-Djava.library.path=/x", "-agentlib:jdwp=transport=dt_socket")));
    }

    @Test
    void shouldReadTheChildsCount() {
        assertEquals(42, IpcConsumer.received("note\nreceived=42\n"));
        assertThrows(IllegalStateException.class, () -> IpcConsumer.received("nothing"));
    }
}
