package dev.sympathy.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The schema's {@code env} record for a Java run: the same machine fields as the Rust side's
 * {@code machine::Env} (read from /proc and /sys), with {@code java} (the JVM's version) in place
 * of {@code rustc}. Fields that cannot be read are {@code "unknown"}.
 *
 * <pre>{@code
 * System.out.println(Json.write(EnvRecord.collect("sympathy-sidecar 0.1.0")));
 * // {"kind":"env","language":"java","cpu_model":"...","cores":16,"caches":{"l1d":49152,...},...}
 * }</pre>
 */
public final class EnvRecord {
    private static final String UNKNOWN = "unknown";

    private EnvRecord() {
    }

    /** Collects the record for this machine and JVM; {@code tool} names the program writing it. */
    public static Map<String, Object> collect(String tool) {
        final String cpuinfo = read("/proc/cpuinfo");
        String model = UNKNOWN;
        boolean virtualized = false;
        for (String line : cpuinfo.split("\n")) {
            if (model.equals(UNKNOWN) && line.startsWith("model name")) {
                model = line.substring(line.indexOf(':') + 1).trim();
            }
            if (line.startsWith("flags") && Arrays.asList(line.split("\\s+")).contains("hypervisor")) {
                virtualized = true;
            }
        }
        final Map<String, Object> env = new LinkedHashMap<>();
        env.put("kind", "env");
        env.put("language", "java");
        env.put("cpu_model", model);
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("caches", caches());
        env.put("thp", thp());
        env.put("kernel", readTrimmed("/proc/sys/kernel/osrelease"));
        env.put("virtualized", virtualized);
        env.put("java", System.getProperty("java.vm.name") + " " + Runtime.version() + " ("
                + System.getProperty("java.vendor") + ")");
        env.put("vector_isa", vectorIsa());
        env.put("tool", tool);
        env.put("timestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        return env;
    }

    /**
     * The widest x86 vector extension C2 compiles for in this JVM, from its {@code UseAVX} flag
     * (chosen at start from the CPU): {@code avx512}, {@code avx2}, {@code avx} or {@code sse2}, as
     * Rust's env record names its build's; {@code unknown} where the flag cannot be read.
     */
    static String vectorIsa() {
        try {
            final var bean = java.lang.management.ManagementFactory.getPlatformMXBean(
                    com.sun.management.HotSpotDiagnosticMXBean.class);
            return switch (Integer.parseInt(bean.getVMOption("UseAVX").getValue())) {
                case 0 -> "sse2";
                case 1 -> "avx";
                case 2 -> "avx2";
                default -> "avx512";
            };
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    /** CPU 0's data and unified caches, keys {@code l1d}, {@code l2}, {@code l3}, sizes in bytes. */
    private static Map<String, Object> caches() {
        final Map<String, Object> caches = new LinkedHashMap<>();
        for (int index = 0; index < 8; index++) {
            final String dir = "/sys/devices/system/cpu/cpu0/cache/index" + index;
            final String level = read(dir + "/level").trim();
            final String type = read(dir + "/type").trim();
            final Long size = parseSize(read(dir + "/size").trim());
            if (level.isEmpty() || size == null || type.equals("Instruction")) {
                continue;
            }
            caches.put("l" + level + (type.equals("Data") ? "d" : ""), size);
        }
        return caches;
    }

    /** Sysfs cache sizes: {@code 48K} to 49152, {@code 105M}, {@code 512}; null when unreadable. */
    static Long parseSize(String s) {
        if (s.isEmpty()) {
            return null;
        }
        final char unit = s.charAt(s.length() - 1);
        final long scale = switch (unit) {
            case 'K' -> 1024L;
            case 'M' -> 1024L * 1024;
            case 'G' -> 1024L * 1024 * 1024;
            default -> 1L;
        };
        try {
            return Long.parseLong(scale == 1 ? s : s.substring(0, s.length() - 1)) * scale;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The selected mode, the bracketed word of {@code always [madvise] never}. */
    private static String thp() {
        return thpMode(readTrimmed("/sys/kernel/mm/transparent_hugepage/enabled"));
    }

    /** {@code always [madvise] never} to {@code madvise}; text without a bracketed word as it is. */
    static String thpMode(String raw) {
        for (String word : raw.split("\\s+")) {
            if (word.length() >= 2 && word.startsWith("[") && word.endsWith("]")) {
                return word.substring(1, word.length() - 1);
            }
        }
        return raw;
    }

    /** The file's text trimmed, {@code "unknown"} when it cannot be read. */
    private static String readTrimmed(String path) {
        final String text = read(path).trim();
        return text.isEmpty() ? UNKNOWN : text;
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
