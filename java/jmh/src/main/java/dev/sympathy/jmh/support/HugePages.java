package dev.sympathy.jmh.support;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * Transparent huge pages of native memory, as Rust's {@code sympathy_harness::region} handles
 * them: advice through {@code madvise(2)} (called through the FFM linker), and the bytes the
 * kernel actually backs with huge pages, read from {@code /proc/self/smaps} ({@code AnonHugePages}
 * of the mapping that holds an address), so a result says what backed it rather than what was
 * asked.
 *
 * <pre>{@code
 * HugePages.adviseNone(segment);                        // MADV_NOHUGEPAGE, as Rust's default
 * boolean huge = HugePages.backedBytes(segment).orElse(0) > 0;
 * }</pre>
 */
public final class HugePages {
    /** {@code MADV_NOHUGEPAGE} of Linux's {@code <sys/mman.h>}. */
    private static final int MADV_NOHUGEPAGE = 15;
    private static final MethodHandle MADVISE = link();

    private HugePages() {
    }

    /** Linking a C function is restricted: the JMH forks run with {@code --enable-native-access}. */
    @SuppressWarnings("restricted")
    private static MethodHandle link() {
        final Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    }

    /**
     * Advises the kernel not to back {@code segment} with huge pages (its address and size must
     * be multiples of the 4 KiB page).
     *
     * @throws IllegalStateException when madvise fails
     */
    public static void adviseNone(MemorySegment segment) {
        final int result;
        try {
            result = (int) MADVISE.invokeExact(segment, segment.byteSize(), MADV_NOHUGEPAGE);
        } catch (Throwable t) {
            throw new IllegalStateException("madvise(MADV_NOHUGEPAGE) could not be called: " + t, t);
        }
        if (result != 0) {
            throw new IllegalStateException("madvise(MADV_NOHUGEPAGE) failed for " + segment.byteSize()
                    + " bytes at 0x" + Long.toHexString(segment.address()) + " (is it page-aligned?)");
        }
    }

    /** Bytes of the mapping that holds {@code segment}'s first byte that huge pages back; empty when unknown. */
    public static OptionalLong backedBytes(MemorySegment segment) {
        try {
            return anonHugePagesAt(Files.readAllLines(Path.of("/proc/self/smaps")), segment.address());
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * {@code AnonHugePages} in bytes of the mapping of {@code smaps} (the lines of
     * {@code /proc/<pid>/smaps}) that holds {@code address}; empty when none holds it.
     */
    static OptionalLong anonHugePagesAt(List<String> smaps, long address) {
        boolean inside = false;
        for (String line : smaps) {
            final int dash = line.indexOf('-');
            final int space = line.indexOf(' ');
            if (dash > 0 && space > dash && isHex(line, 0, dash) && isHex(line, dash + 1, space)) {
                final long start = Long.parseUnsignedLong(line, 0, dash, 16);
                final long end = Long.parseUnsignedLong(line, dash + 1, space, 16);
                inside = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
            } else if (inside && line.startsWith("AnonHugePages:")) {
                final String kib = line.substring("AnonHugePages:".length()).trim().split("\\s+")[0];
                return OptionalLong.of(Long.parseLong(kib) * 1024);
            }
        }
        return OptionalLong.empty();
    }

    private static boolean isHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return to > from;
    }
}
