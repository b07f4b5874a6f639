package dev.sympathy.app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small command-line parser: positional arguments, {@code --name value} options and
 * {@code --flag} switches. Every option a command did not declare is a {@link UsageException}.
 */
final class Args {
    private final String command;
    private final List<String> positional = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();

    /**
     * @param valued option names that take a value (without the leading dashes)
     * @param switches option names that take none
     */
    Args(String command, String[] argv, int from, Set<String> valued, Set<String> switches) {
        this.command = command;
        for (int i = from; i < argv.length; i++) {
            String arg = argv[i];
            if (arg.startsWith("--")) {
                String name = arg.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (switches.contains(name) && value == null) {
                    options.put(name, "true");
                } else if (valued.contains(name)) {
                    if (value == null) {
                        if (i + 1 >= argv.length) {
                            throw new UsageException(command + ": --" + name + " needs a value");
                        }
                        value = argv[++i];
                    }
                    options.put(name, value);
                } else {
                    throw new UsageException(command + ": unknown option --" + name
                            + " (options: " + describe(valued, switches) + ")");
                }
            } else {
                positional.add(arg);
            }
        }
    }

    private static String describe(Set<String> valued, Set<String> switches) {
        List<String> all = new ArrayList<>();
        valued.stream().sorted().forEach(v -> all.add("--" + v + " V"));
        switches.stream().sorted().forEach(s -> all.add("--" + s));
        return all.isEmpty() ? "none" : String.join(", ", all);
    }

    /** The positional argument at {@code index}, named {@code what} in the error when missing. */
    String positional(int index, String what) {
        if (index >= positional.size()) {
            throw new UsageException(command + ": missing " + what);
        }
        return positional.get(index);
    }

    /** Fails when more than {@code count} positional arguments were given. */
    void expectPositional(int count) {
        if (positional.size() > count) {
            throw new UsageException(command + ": unexpected argument '" + positional.get(count) + "'");
        }
    }

    /** The command these options belong to (it prefixes every usage error). */
    String command() {
        return command;
    }

    boolean flag(String name) {
        return options.containsKey(name);
    }

    String string(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    /** A required integer option within [min, max]. */
    long requiredLong(String name, long min, long max) {
        if (!options.containsKey(name)) {
            throw new UsageException(command + ": --" + name + " is required");
        }
        return longOption(name, min, max, 0);
    }

    /** An integer option within [min, max]; accepts suffixes k, m, g (powers of 1024) and _. */
    long longOption(String name, long min, long max, long fallback) {
        String raw = options.get(name);
        if (raw == null) {
            return fallback;
        }
        long value = parseLong(command, name, raw);
        if (value < min || value > max) {
            throw new UsageException(command + ": --" + name + " " + raw + " is out of range " + min + ".." + max);
        }
        return value;
    }

    static long parseLong(String command, String name, String raw) {
        String s = raw.replace("_", "").toLowerCase(java.util.Locale.ROOT);
        long scale = 1;
        if (s.endsWith("k")) {
            scale = 1L << 10;
        } else if (s.endsWith("m")) {
            scale = 1L << 20;
        } else if (s.endsWith("g")) {
            scale = 1L << 30;
        }
        if (scale != 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(s), scale);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new UsageException(command + ": --" + name + " expects a whole number, got '" + raw + "'");
        }
    }
}
