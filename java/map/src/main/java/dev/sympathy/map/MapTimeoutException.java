package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** The file's creator never set ready (kind {@code timeout}). */
public final class MapTimeoutException extends MapException {
    private static final long serialVersionUID = 1L;

    public MapTimeoutException(long waitedMs) {
        super("timeout", FileMessages.notReady(MapDescriptor.KIND, java.time.Duration.ofMillis(waitedMs)));
    }
}
