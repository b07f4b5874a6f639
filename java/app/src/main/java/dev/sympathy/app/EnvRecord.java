package dev.sympathy.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code env} record of docs/results.md, as the Rust side's {@code machine::Env} writes it,
 * with {@code java} (the JVM's version) in place of {@code rustc}.
 */
final class EnvRecord {
    private EnvRecord() {}

    static Map<String, Object> collect() {
        String cpuinfo = read("/proc/cpuinfo");
        String cpuModel = "unknown";
        boolean virtualized = false;
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("model name") && cpuModel.equals("unknown")) {
                cpuModel = line.substring(line.indexOf(':') + 1).trim();
            }
            if (line.startsWith("flags") && java.util.Arrays.asList(line.split("\\s+")).contains("hypervisor")) {
                virtualized = true;
            }
        }
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("kind", "env");
        env.put("language", "java");
        env.put("cpu_model", cpuModel);
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("caches", caches());
        env.put("thp", thp());
        env.put("kernel", read("/proc/sys/kernel/osrelease").trim());
        env.put("virtualized", virtualized);
        env.put("java", System.getProperty("java.vm.name") + " " + Runtime.version() + " ("
                + System.getProperty("java.vendor") + ")");
        env.put("tool", "sympathy-sidecar 0.1.0");
        env.put("timestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        return env;
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String thp() {
        String raw = read("/sys/kernel/mm/transparent_hugepage/enabled").trim();
        for (String word : raw.split("\\s+")) {
            if (word.startsWith("[") && word.endsWith("]")) {
                return word.substring(1, word.length() - 1);
            }
        }
        return raw;
    }

    private static Map<String, Object> caches() {
        Map<String, Object> caches = new LinkedHashMap<>();
        for (int index = 0; index < 8; index++) {
            String dir = "/sys/devices/system/cpu/cpu0/cache/index" + index;
            String level = read(dir + "/level").trim();
            String type = read(dir + "/type").trim();
            String size = read(dir + "/size").trim();
            if (level.isEmpty() || size.isEmpty() || type.equals("Instruction")) {
                continue;
            }
            long bytes = parseSize(size);
            if (bytes > 0) {
                caches.put("l" + level + (type.equals("Data") ? "d" : ""), bytes);
            }
        }
        return caches;
    }

    /** Sysfs cache sizes such as {@code 48K}, {@code 105M}; 0 when unreadable. */
    static long parseSize(String s) {
        long scale = s.endsWith("K") ? 1024 : s.endsWith("M") ? 1024 * 1024 : s.endsWith("G") ? 1L << 30 : 1;
        String digits = scale == 1 ? s : s.substring(0, s.length() - 1);
        try {
            return Long.parseLong(digits) * scale;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
