package dev.sympathy.mapped;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;

/**
 * Opening a mapped file that may be hostile, up to the kind's own fields: the steps every kind
 * takes in the same order (docs/ring-layout.md and docs/map-layout.md, "Opening"), the Java twin
 * of the Rust {@code sympathy_mapped::open::open_header}. The ring's {@code RingFile.open} and the
 * map's {@code MapFile.open} each keep one {@code MappedOpen} with their {@link FileKind} and
 * their {@link OpenErrors}, so every refusal is the kind's own exception class; the kind then
 * checks its sizes against the {@link OpenedFile#length()}, its own fields in the
 * {@link OpenedFile#header()}, and maps the whole file its own way.
 *
 * <ol>
 *   <li>a regular file, checked before it is opened (a FIFO would block the open, a device such
 *       as {@code /dev/zero} would map as endless zeros), then opened read-only or for reading
 *       and writing ({@code permission-denied}, {@code io}); a path that does not exist is
 *       {@code io} at once, or waited for until the timeout by an opener made to wait;</li>
 *   <li>at least a header page long within the timeout (its creator may still be sizing it);</li>
 *   <li>the magic 0 (not yet written) or the kind's, and {@code ready} 0 or 1, until
 *       {@code ready} is 1 within the timeout;</li>
 *   <li>the kind's magic and layout version.</li>
 * </ol>
 *
 * <pre>{@code
 * MappedOpen opener = new MappedOpen(MapDescriptor.KIND, MapOpenErrors.ERRORS);
 * try (OpenedFile opened = opener.open(path, Duration.ofSeconds(2), MappedOpen.Access.READ_ONLY)) {
 *     long slots = (long) LONG.get(opened.header(), (long) SLOTS_OFFSET);   // the kind's fields
 * }
 * }</pre>
 */
public final class MappedOpen {
    /** How an opener may touch the file. */
    public enum Access {
        /** A writer or a peer: opened for reading and writing. */
        READ_WRITE,
        /** A reader or a tool: opened read-only, needing no write permission. */
        READ_ONLY
    }

    private static final long POLL_NANOS = 1_000_000;
    private static final VarHandle INT =
            ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle().withInvokeExactBehavior();
    private static final VarHandle LONG =
            ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle().withInvokeExactBehavior();

    private final FileKind kind;
    private final OpenErrors errors;
    /** The error for a path still missing when the timeout ends; null: a missing path is {@code io} at once. */
    private final BiFunction<String, Duration, ? extends MappedFileException> notCreated;

    /**
     * An opener that refuses a path that does not exist at once, with the kind's {@code io}
     * error (the map's, and every Rust opener's).
     */
    public MappedOpen(FileKind kind, OpenErrors errors) {
        this(kind, errors, null);
    }

    /**
     * An opener that waits for a path that does not exist yet to be created, until the timeout,
     * then throws {@code notCreated} of the path and the timeout (the Java ring's).
     */
    public MappedOpen(FileKind kind, OpenErrors errors,
            BiFunction<String, Duration, ? extends MappedFileException> notCreated) {
        this.kind = kind;
        this.errors = errors;
        this.notCreated = notCreated;
    }

    /**
     * Takes the shared steps of an open (the list above) on {@code path}, each waiting at most
     * until {@code timeout} has passed since the call.
     *
     * @return the open file with its header page; the caller closes it
     * @throws MappedFileException the kind's exception (from its {@link OpenErrors}) for the first
     *     step that refuses the file
     */
    public OpenedFile open(Path path, Duration timeout, Access access) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String where = path.toString();
        FileChannel channel = openRegularFile(path, access, timeout, deadline);
        Arena headerArena = Arena.ofConfined();
        try {
            waitForHeaderPage(channel, path, timeout, deadline);
            MemorySegment header = channel.map(FileChannel.MapMode.READ_ONLY, 0, MappedHeader.HEADER_LENGTH,
                    headerArena);
            waitForReady(header, where, timeout, deadline);
            checkMagicAndVersion(header, where);
            return new OpenedFile(channel, headerArena, header, channel.size());
        } catch (IOException | RuntimeException e) {
            headerArena.close();
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException io) {
                throw refusal(where, "map", io);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * Refuses anything but a regular file (symbolic links followed) before opening it, then opens
     * it; waits for a missing path when this opener was made to.
     */
    private FileChannel openRegularFile(Path path, Access access, Duration timeout, long deadline) {
        String where = path.toString();
        while (true) {
            try {
                String what = RegularFiles.problem(path);
                if (what != null) {
                    throw errors.notARegularFile().of(where, what);
                }
                return access == Access.READ_ONLY
                        ? FileChannel.open(path, StandardOpenOption.READ)
                        : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (NoSuchFileException e) {
                if (notCreated == null) {
                    throw refusal(where, "open", e);
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw notCreated.apply(where, timeout);
                }
                pause();
            } catch (IOException e) {
                throw refusal(where, "open", e);
            }
        }
    }

    /**
     * Waits until the file is at least a header page long: at most until the deadline, and not
     * at all when the file was last changed {@code timeout} or longer ago (then no creator is
     * sizing it: a create sizes its file at once).
     */
    private void waitForHeaderPage(FileChannel channel, Path path, Duration timeout, long deadline)
            throws IOException {
        String where = path.toString();
        while (true) {
            long length = channel.size();
            if (length >= MappedHeader.HEADER_LENGTH) {
                return;
            }
            if (System.nanoTime() - deadline >= 0 || untouchedFor(path, timeout)) {
                throw errors.shorterThanHeader().of(where, length);
            }
            pause();
        }
    }

    /** Whether {@code path} was last changed {@code timeout} or longer ago (as the Rust open). */
    private static boolean untouchedFor(Path path, Duration timeout) {
        try {
            Instant changed = Files.getLastModifiedTime(path).toInstant();
            return !changed.plus(timeout).isAfter(Instant.now());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Waits for the creator's {@code ready} word (stored last, so the header is complete once it
     * is 1); meanwhile the magic must be 0 (not yet written) or the kind's, and {@code ready} 0 or 1.
     */
    private void waitForReady(MemorySegment header, String where, Duration timeout, long deadline) {
        long start = System.nanoTime();
        while (true) {
            // A creator writes the magic before `ready`; anything else there is another kind.
            long magic = (long) LONG.get(header, (long) MappedHeader.MAGIC_OFFSET);
            if (magic != 0 && magic != kind.magic()) {
                throw errors.notThisKind().of(where, magic);
            }
            // SYNC POINT ready: acquire pairs with the creator's release of `ready`.
            int ready = (int) INT.getAcquire(header, (long) MappedHeader.READY_OFFSET);
            if (ready == MappedHeader.READY) {
                return;
            }
            if (ready != 0) {
                // A creator only ever stores 0 (the zero-filled file) or 1.
                throw errors.corruptHeader().of(where, "ready is " + Integer.toUnsignedString(ready)
                        + ", expected 0 (being created) or 1");
            }
            if (System.nanoTime() - deadline >= 0) {
                throw errors.notReady().of(timeout, Duration.ofMillis((System.nanoTime() - start) / 1_000_000));
            }
            pause();
        }
    }

    /** Checks that a ready header is of the kind: its magic (read after {@code ready}) and its layout version. */
    private void checkMagicAndVersion(MemorySegment header, String where) {
        long magic = (long) LONG.get(header, (long) MappedHeader.MAGIC_OFFSET);
        if (magic != kind.magic()) {
            throw errors.notThisKind().of(where, magic);
        }
        int version = (int) INT.get(header, (long) MappedHeader.LAYOUT_VERSION_OFFSET);
        if (!kind.reads(version)) {
            throw errors.unsupportedVersion().of(where, version);
        }
    }

    /** The kind's error for an operating-system failure to {@code verb} ("open", "map") the file. */
    private MappedFileException refusal(String where, String verb, IOException e) {
        String operation = verb + " the " + kind.noun() + " file";
        if (e instanceof AccessDeniedException denied) {
            return errors.permissionDenied().of(where, operation, denied);
        }
        // EPERM (an immutable file, a sealed one) is the JDK's bare FileSystemException; Rust
        // counts it as permission denied, as EACCES.
        if (e instanceof FileSystemException fs && "Operation not permitted".equals(fs.getReason())) {
            return errors.permissionDenied().of(where, operation,
                    new AccessDeniedException(fs.getFile(), fs.getOtherFile(), fs.getReason()));
        }
        return errors.io().of(where, operation, e);
    }

    private static void pause() {
        LockSupport.parkNanos(POLL_NANOS);
    }
}
