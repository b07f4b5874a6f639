package dev.sympathy.ring;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reserves the blocks of a new ring file with {@code posix_fallocate} (through FFM's
 * {@link Linker}, no JNI), so that a filesystem too small for it fails at create with
 * {@link NoSpaceException} instead of killing the first writer with {@code SIGBUS}: a file
 * only sized is sparse, and its pages get their blocks when first written, when a full
 * filesystem can only answer with a signal.
 *
 * <pre>{@code
 * FileSpace.reserve(path, RingDescriptor.fileLength(capacity));   // NoSpaceException when it does not fit
 * }</pre>
 */
final class FileSpace {
    private static final int O_WRONLY = 1;
    private static final int O_CLOEXEC = 0x80000;
    private static final int EINTR = 4;
    private static final int EINVAL = 22;
    private static final int EFBIG = 27;
    private static final int ENOSPC = 28;
    private static final int EOPNOTSUPP = 95;
    private static final int EDQUOT = 122;

    /** {@code open}, {@code posix_fallocate} and {@code close} of the C library; empty where not found. */
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
            return Optional.of(new MethodHandle[] {open, fallocate, close});
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Allocates the first {@code length} bytes of the file at {@code path} (extending it),
     * for a file no peer uses yet. Does nothing where the platform or filesystem cannot.
     *
     * @throws NoSpaceException if the filesystem has no room for it
     * @throws IOException for any other failure
     */
    static void reserve(Path path, long length) throws IOException {
        if (CALLS.isEmpty()) {
            return;
        }
        MethodHandle[] calls = CALLS.get();
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(path.toString());
            fd = (int) calls[0].invokeExact(name, O_WRONLY | O_CLOEXEC, 0);
        } catch (Throwable e) {
            throw new IOException(path + ": could not open the ring file to reserve its space", e);
        }
        if (fd < 0) {
            throw new IOException(path + ": could not open the ring file to reserve its space");
        }
        int rc;
        try {
            do {
                rc = (int) calls[1].invokeExact(fd, 0L, length);
            } while (rc == EINTR);
        } catch (Throwable e) {
            throw new IOException(path + ": could not reserve the ring file's space", e);
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
        throw new IOException(path + ": could not reserve the ring file's space (posix_fallocate error " + rc + ")");
    }

    /** The error naming the filesystem ({@code df}-style: mount point and type) and its free space. */
    static NoSpaceException noSpace(Path path, long needed) {
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
        return new NoSpaceException(path.toString(), filesystem, available, needed);
    }
}
