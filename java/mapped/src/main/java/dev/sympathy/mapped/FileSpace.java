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

    /**
     * {@code open}, {@code posix_fallocate}, {@code close} and {@code fallocate} (the last with
     * {@code errno} captured) of the C library; empty where not found.
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
            return Optional.of(new MethodHandle[] {open, fallocate, close, holes});
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Allocates the first {@code length} bytes of the file at {@code path} (extending it),
     * for a file no peer uses yet. Does nothing where the platform or filesystem cannot.
     *
     * @throws NoSpaceError if the filesystem has no room for it
     * @throws IOException for any other failure
     */
    public static void reserve(Path path, long length) throws IOException {
        if (CALLS.isEmpty()) {
            return;
        }
        MethodHandle[] calls = CALLS.get();
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
        int rc;
        try {
            do {
                rc = (int) calls[1].invokeExact(fd, 0L, length);
            } while (rc == EINTR);
        } catch (Throwable e) {
            throw new IOException(path + ": could not reserve the file's space", e);
        } finally {
            try {
                int ignored = (int) calls[2].invokeExact(fd);
            } catch (Throwable e) {
                // Closing a descriptor we own cannot fail in a way that matters here.
            }
        }
        if (rc == 0 || rc == EOPNOTSUPP || rc == EINVAL) {
            return; // reserved, or a filesystem that cannot allocate ahead: the file stays sparse
        }
        if (rc == ENOSPC || rc == EFBIG || rc == EDQUOT) {
            throw noSpace(path, length);
        }
        throw new IOException(path + ": could not reserve the file's space (posix_fallocate error " + rc + ")");
    }

    /**
     * Allocates the blocks of the holes in the first {@code length} bytes of an existing ring
     * file that peers may have mapped (a sparse file left by a create that did not reserve):
     * the {@code fallocate} system call, mode 0, allocates holes only and never touches written
     * data. Where the filesystem or file cannot allocate ahead nothing is done: unlike
     * {@code posix_fallocate}, this never falls back to writing zeros, which could overwrite a
     * live peer's bytes.
     *
     * @throws NoSpaceError if the filesystem has no room for the file's missing blocks
     * @throws IOException for any other failure
     */
    public static void allocateHoles(Path path, long length) throws IOException {
        if (CALLS.isEmpty()) {
            return;
        }
        MethodHandle[] calls = CALLS.get();
        int errno;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(path.toString());
            int fd = (int) calls[0].invokeExact(name, O_WRONLY | O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IOException(path + ": could not open the file to reserve its space");
            }
            StructLayout stateLayout = Linker.Option.captureStateLayout();
            VarHandle errnoHandle = stateLayout.varHandle(MemoryLayout.PathElement.groupElement("errno"));
            MemorySegment state = arena.allocate(stateLayout);
            try {
                int rc;
                do {
                    rc = (int) calls[3].invokeExact(state, fd, 0, 0L, length);
                    errno = rc == 0 ? 0 : (int) errnoHandle.get(state, 0L);
                } while (errno == EINTR);
            } finally {
                int ignored = (int) calls[2].invokeExact(fd);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(path + ": could not reserve the file's space", e);
        }
        switch (errno) {
            case 0, EOPNOTSUPP, ENOSYS, EINVAL, ENODEV, ESPIPE -> {
                // Allocated, or not a file that can allocate ahead (a filesystem without
                // fallocate, a device): it stays as it is.
            }
            case ENOSPC, EFBIG, EDQUOT -> throw noSpace(path, length);
            default -> throw new IOException(path + ": could not reserve the file's space (fallocate errno "
                    + errno + ")");
        }
    }

    /** The error naming the filesystem ({@code df}-style: mount point and type) and its free space. */
    static NoSpaceError noSpace(Path path, long needed) {
        Path dir = path.toAbsolutePath().getParent();
        String filesystem = "the filesystem of " + dir;
        long available = 0;
        try {
            FileStore store = Files.getFileStore(dir);
            available = store.getUsableSpace();
            // toString() is "MOUNT_POINT (DEVICE)"; say the type as df -T does.
            String shown = store.toString();
            String suffix = " (" + store.name() + ")";
            String mount = shown.endsWith(suffix) ? shown.substring(0, shown.length() - suffix.length()) : shown;
            filesystem = mount + " (" + store.type() + ")";
        } catch (IOException e) {
            // Keep the directory: the error is about space, not about naming it.
        }
        return new NoSpaceError(filesystem, available);
    }
}
