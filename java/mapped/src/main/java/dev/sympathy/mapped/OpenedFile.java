package dev.sympathy.mapped;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;

/**
 * A file whose header page passed the shared checks of {@link MappedOpen} (the Rust
 * {@code sympathy_mapped::open::OpenedFile}): the kind checks the rest of its header, then maps
 * the whole file from {@link #channel()} its own way. Closing unmaps the header page and closes
 * the channel; a mapping made from the channel stays valid. The header page is mapped in a
 * confined arena: read it from the thread that opened the file.
 *
 * <pre>{@code
 * try (OpenedFile opened = OPENER.open(path, timeout, MappedOpen.Access.READ_WRITE)) {
 *     long capacity = (long) LONG.get(opened.header(), (long) CAPACITY_OFFSET);
 *     MemorySegment whole = opened.channel().map(FileChannel.MapMode.READ_WRITE, 0, opened.length(), arena);
 * }
 * }</pre>
 */
public final class OpenedFile implements AutoCloseable {
    private final FileChannel channel;
    private final Arena headerArena;
    private final MemorySegment header;
    private final long length;

    OpenedFile(FileChannel channel, Arena headerArena, MemorySegment header, long length) {
        this.channel = channel;
        this.headerArena = headerArena;
        this.header = header;
        this.length = length;
    }

    /** The open file: read-only, or for reading and writing, as the open's access asked. */
    public FileChannel channel() {
        return channel;
    }

    /** The header page ({@link MappedHeader#HEADER_LENGTH} bytes), mapped read-only. */
    public MemorySegment header() {
        return header;
    }

    /** The file's length once its creator had set {@code ready} (at least the header page). */
    public long length() {
        return length;
    }

    /** Unmaps the header page and closes the channel. */
    @Override
    public void close() {
        headerArena.close();
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing was written through the channel, and its descriptor is released anyway.
        }
    }
}
