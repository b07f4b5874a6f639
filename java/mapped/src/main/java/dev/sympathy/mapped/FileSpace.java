package dev.sympathy.mapped;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reserves the blocks of a new mapped file with {@code posix_fallocate} (through FFM's
 * {@link Linker}, no JNI), so that a filesystem too small for it fails when it is made with
 * {@link NoSpaceError} instead of killing the first writer with {@code SIGBUS}: a file only
 * sized is sparse, and its pages get their blocks when first written, when a full filesystem
 * can only answer with a signal. {@link #allocateHoles} does the same for an existing file that
 * other processes may use (the {@code fallocate} system call, which never writes). The Rust
 * {@code sympathy_mapped::space}.
 *
 * <p>A reservation never takes a filesystem's last bytes, not even for a moment, since other
 * programs write there too: it refuses at once when the file does not fit beside
 * {@link #keptFree} bytes, and it allocates in {@link #RESERVE_STEP}s, reading the free space
 * again before each, so that a filesystem others fill meanwhile stops it at that margin (the
 * file is then removed by its creator).
 *
 * <pre>{@code
 * FileSpace.reserve(path, length);   // NoSpaceError when it does not fit
 * }</pre>
 */
public final class FileSpace {
    private static final int O_WRONLY = 1;
    private static final int O_CLOEXEC = 0x80000;
    private static final int EINTR = 4;
    private static final int ENODEV = 19;
    private static final int EINVAL = 22;
    private static final int ESPIPE = 29;
    private static final int ENOSYS = 38;
    private static final int EFBIG = 27;
    private static final int ENOSPC = 28;
    private static final int EOPNOTSUPP = 95;
    private static final int EDQUOT = 122;
    private static final int ENXIO = 6;
    private static final int SEEK_HOLE = 4;

    /**
     * Bytes a reservation reads the free space again after: the most it can take of a
     * filesystem that others fill meanwhile beyond the {@link #keptFree} margin.
     */
    public static final long RESERVE_STEP = 8L << 20;

    /**
     * {@code open}, {@code posix_fallocate}, {@code close}, {@code fallocate} and {@code lseek}
     * (the last two with {@code errno} captured) of the C library; empty where not found.
     */
    private static final Optional<MethodHandle[]> CALLS = lookup();

    private FileSpace() {}

    /**
     * Linking a C function is restricted: the JVM needs {@code --enable-native-access} (the
     * sidecar's launcher and the tests give it; without it the JDK warns once). Where linking is
     * refused, files are created sparse as before.
     */
    @SuppressWarnings("restricted")
    private static Optional<MethodHandle[]> lookup() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return Optional.empty();
        }
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        try {
            MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT),
                    Linker.Option.firstVariadicArg(2));
            MethodHandle fallocate = linker.downcallHandle(libc.find("posix_fallocate").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG));
            MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            // glibc's fallocate is the bare system call: no fallback that writes zeros.
            MethodHandle holes = linker.downcallHandle(libc.find("fallocate").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                    Linker.Option.captureCallState("errno"));
            MethodHandle seek = linker.downcallHandle(libc.find("lseek").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_INT),
                    Linker.Option.captureCallState("errno"));
            return Optional.of(new MethodHandle[] {open, fallocate, close, holes, seek});
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Bytes of a filesystem of {@code total} bytes that a reservation leaves free for other
     * programs: 1/32 of it, at least 4 MiB (a quarter of a filesystem smaller than 16 MiB) and at
     * most 256 MiB; as the Rust {@code kept_free}.
     */
    public static long keptFree(long total) {
        long least = Math.min(4L << 20, total / 4);
        return Math.min(Math.max(total / 32, least), 256L << 20);
    }

    /**
     * Allocates the first {@code length} bytes of the file at {@code path} (extending it),
     * for a file no peer uses yet. Does nothing where the platform or filesystem cannot. It
     * refuses before it allocates anything when {@code length} and {@link #keptFree} bytes do
     * not both fit in the free space, and allocates in {@link #RESERVE_STEP}s, each after a new
     * look at the free space.
     *
     * @throws NoSpaceError if the filesystem has no room for it
     * @throws IOException for any other failure
     */
    public static void reserve(Path path, long length) throws IOException {
        if (CALLS.isEmpty()) {
            return;
        }
        MethodHandle[] calls = CALLS.get();
        int fd = open(calls, path);
        try {
            long reserved = 0;
            while (reserved < length) {
                long step = Math.min(RESERVE_STEP, length - reserved);
                // The first look asks for the whole file; the later ones for the next step.
                roomFor(path, reserved == 0 ? length : step);
                int rc = (int) calls[1].invokeExact(fd, reserved, step);
                if (rc == 0) {
                    reserved += step;
                } else if (rc == EOPNOTSUPP || rc == EINVAL) {
                    return; // a filesystem that cannot allocate ahead: the file stays sparse
                } else if (rc == ENOSPC || rc == EFBIG || rc == EDQUOT) {
                    throw noSpace(path);
                } else if (rc != EINTR) {
                    throw new IOException(path + ": could not reserve the file's space (posix_fallocate error "
                            + rc + ")");
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(path + ": could not reserve the file's space", e);
        } finally {
            close(calls, fd);
        }
    }

    /**
     * Allocates the blocks of the holes in the first {@code length} bytes of an existing ring
     * file that peers may have mapped (a sparse file left by a create that did not reserve):
     * the {@code fallocate} system call, mode 0, allocates holes only and never touches written
     * data. Where the filesystem or file cannot allocate ahead nothing is done: unlike
     * {@code posix_fallocate}, this never falls back to writing zeros, which could overwrite a
     * live peer's bytes. As {@link #reserve}, it keeps {@link #keptFree} bytes free, going from
     * hole to hole ({@code lseek}'s {@code SEEK_HOLE}) a {@link #RESERVE_STEP} at a time; a file
     * with all its blocks needs no room.
     *
     * @throws NoSpaceError if the filesystem has no room for the file's missing blocks
     * @throws IOException for any other failure
     */
    public static void allocateHoles(Path path, long length) throws IOException {
        if (CALLS.isEmpty()) {
            return;
        }
        MethodHandle[] calls = CALLS.get();
        int fd = open(calls, path);
        try (Arena arena = Arena.ofConfined()) {
            StructLayout stateLayout = Linker.Option.captureStateLayout();
            VarHandle errnoHandle = stateLayout.varHandle(MemoryLayout.PathElement.groupElement("errno"));
            MemorySegment state = arena.allocate(stateLayout);
            long offset = 0;
            while (true) {
                long hole = (long) calls[4].invokeExact(state, fd, offset, SEEK_HOLE);
                if (hole < 0) {
                    int errno = (int) errnoHandle.get(state, 0L);
                    if (errno == ENXIO || errno == EINVAL) {
                        return; // past the end, or a filesystem that cannot say where its holes are
                    }
                    throw new IOException(path + ": could not find the file's holes (lseek errno " + errno + ")");
                }
                if (hole >= length) {
                    return;
                }
                long step = Math.min(RESERVE_STEP, length - hole);
                roomFor(path, step);
                int rc = (int) calls[3].invokeExact(state, fd, 0, hole, step);
                int errno = rc == 0 ? 0 : (int) errnoHandle.get(state, 0L);
                switch (errno) {
                    case 0 -> offset = hole + step;
                    case EINTR -> offset = hole;
                    case EOPNOTSUPP, ENOSYS, EINVAL, ENODEV, ESPIPE -> {
                        // Not a file that can allocate ahead (a filesystem without fallocate, a
                        // device): it stays as it is.
                        return;
                    }
                    case ENOSPC, EFBIG, EDQUOT -> throw noSpace(path);
                    default -> throw new IOException(path + ": could not reserve the file's space (fallocate errno "
                            + errno + ")");
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(path + ": could not reserve the file's space", e);
        } finally {
            close(calls, fd);
        }
    }

    private static int open(MethodHandle[] calls, Path path) throws IOException {
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(path.toString());
            fd = (int) calls[0].invokeExact(name, O_WRONLY | O_CLOEXEC, 0);
        } catch (Throwable e) {
            throw new IOException(path + ": could not open the file to reserve its space", e);
        }
        if (fd < 0) {
            throw new IOException(path + ": could not open the file to reserve its space");
        }
        return fd;
    }

    private static void close(MethodHandle[] calls, int fd) {
        try {
            int ignored = (int) calls[2].invokeExact(fd);
        } catch (Throwable e) {
            // Closing a descriptor we own cannot fail in a way that matters here.
        }
    }

    /**
     * Returns when {@code wanted} more bytes fit on {@code path}'s filesystem beside the
     * {@link #keptFree} margin (or when the free space cannot be read: the reservation itself
     * then decides).
     */
    private static void roomFor(Path path, long wanted) throws NoSpaceError {
        FileStore store;
        long available;
        long total;
        try {
            store = Files.getFileStore(path.toAbsolutePath().getParent());
            available = store.getUsableSpace();
            total = store.getTotalSpace();
        } catch (IOException e) {
            return;
        }
        long kept = keptFree(total);
        if (wanted > available - kept) {
            throw new NoSpaceError(filesystemName(store), available, kept);
        }
    }

    /** The error naming the filesystem ({@code df}-style: mount point and type) and its free space. */
    static NoSpaceError noSpace(Path path) {
        Path dir = path.toAbsolutePath().getParent();
        try {
            FileStore store = Files.getFileStore(dir);
            long available = store.getUsableSpace();
            return new NoSpaceError(filesystemName(store), available, keptFree(store.getTotalSpace()));
        } catch (IOException e) {
            // Keep the directory: the error is about space, not about naming it.
            return new NoSpaceError("the filesystem of " + dir, 0, 0);
        }
    }

    /** A file store as {@code df -T} names it: {@code MOUNT_POINT (TYPE)}. */
    private static String filesystemName(FileStore store) {
        // toString() is "MOUNT_POINT (DEVICE)"; say the type as df -T does.
        String shown = store.toString();
        String suffix = " (" + store.name() + ")";
        String mount = shown.endsWith(suffix) ? shown.substring(0, shown.length() - suffix.length()) : shown;
        return mount + " (" + store.type() + ")";
    }
}
