package dev.sympathy.jmh.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The schema's {@code env} record for a Java run: the same machine fields as the Rust side's
 * {@code machine::Env} (read from /proc and /sys), with {@code java} (the JVM's version) in place
 * of {@code rustc}. Fields that cannot be read are {@code "unknown"}.
 */
public final class EnvRecord {
    private EnvRecord() {
    }

    /** Collects the record for this machine and JVM. */
    public static Map<String, Object> collect() {
        final String cpuinfo = read("/proc/cpuinfo");
        String model = "unknown";
        boolean virtualized = false;
        for (String line : cpuinfo.split("\n")) {
            if (model.equals("unknown") && line.startsWith("model name")) {
                model = line.substring(line.indexOf(':') + 1).trim();
            }
            if (line.startsWith("flags") && (" " + line + " ").contains(" hypervisor ")) {
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
        env.put("kernel", read("/proc/sys/kernel/osrelease").trim());
        env.put("virtualized", virtualized);
        env.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        env.put("tool", "sympathy-jmh 0.1.0 (JMH 1.37)");
        env.put("timestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        return env;
    }

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

    /** {@code 48K} to 49152; null when unreadable. */
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

    private static String thp() {
        final String raw = read("/sys/kernel/mm/transparent_hugepage/enabled");
        final int open = raw.indexOf('[');
        final int close = raw.indexOf(']');
        return open >= 0 && close > open ? raw.substring(open + 1, close) : "unknown";
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
