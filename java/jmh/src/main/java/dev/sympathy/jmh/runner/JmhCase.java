package dev.sympathy.jmh.runner;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.runner.options.Options;

/**
 * One benchmark as JMH runs it: its name ({@code <class>.<method>}, or {@code <class>.<group>}
 * for a {@code @Group}), one value of each of its {@code @Param}s, its thread count. The
 * converter reads one from each JMH result ({@link #ofResult}); {@code --plan} lists the cases a
 * run's options will make JMH run ({@link #expand}), so both go through the same
 * {@link ResultGroups#of}.
 *
 * <pre>{@code
 * JmhCase.expand(MemoryWalk.class, options)
 * // [dev.sympathy.jmh.walk.MemoryWalk.walk {variant=linear, memory=off-heap, sizeBytes=268435456} x1, ...]
 * }</pre>
 *
 * @param benchmark the full JMH benchmark name, {@code dev.sympathy.jmh.walk.MemoryWalk.walk}
 * @param params the {@code @Param} values, as JMH passes them (text)
 * @param threads the threads running it
 */
public record JmhCase(String benchmark, Map<String, String> params, int threads) {
    public JmhCase {
        params = Map.copyOf(params);
    }

    /** The benchmark class's full name, {@code dev.sympathy.jmh.walk.MemoryWalk}. */
    public String className() {
        final int dot = benchmark.lastIndexOf('.');
        if (dot <= 0) {
            throw new IllegalArgumentException("unexpected JMH benchmark name '" + benchmark + "'");
        }
        return benchmark.substring(0, dot);
    }

    /** Whether it is a benchmark of {@code benchmarkClass}. */
    public boolean isOf(Class<?> benchmarkClass) {
        return className().equals(benchmarkClass.getName());
    }

    /** The method (or group) name, {@code walk}. */
    public String method() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** Its variant: the {@code variant} param where the benchmark has one, else its method in kebab case. */
    public String variant() {
        return params.containsKey("variant") ? param("variant") : kebab(method());
    }

    /**
     * The text of {@code @Param} {@code name}.
     *
     * @throws IllegalArgumentException when the benchmark has no such param
     */
    public String param(String name) {
        final String value = params.get(name);
        if (value == null) {
            throw new IllegalArgumentException(benchmark + " has no param '" + name + "' (has " + params.keySet() + ")");
        }
        return value;
    }

    /**
     * The integer value of {@code @Param} {@code name}.
     *
     * @throws IllegalArgumentException when the benchmark has no such param or it is no integer
     */
    public long number(String name) {
        try {
            return Long.parseLong(param(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(benchmark + ": param '" + name + "' is not an integer: " + param(name), e);
        }
    }

    /** {@code lockXadd} to {@code lock-xadd}: a benchmark method's variant name. */
    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** The case of one entry of JMH's JSON result ({@code benchmark}, {@code params}, {@code threads}). */
    static JmhCase ofResult(Map<String, Object> result) {
        final Map<String, String> params = new LinkedHashMap<>();
        if (result.get("params") instanceof Map<?, ?> jmhParams) {
            jmhParams.forEach((k, v) -> params.put(String.valueOf(k), String.valueOf(v)));
        }
        final Object threads = result.get("threads");
        return new JmhCase(String.valueOf(result.get("benchmark")), params,
                threads instanceof Number n ? n.intValue() : 1);
    }

    /**
     * Every case JMH runs for {@code options} over {@code benchmarkClass}: each benchmark whose
     * name an include of the options matches, times every combination of its {@code @Param}
     * values (the options' values where set, else the annotation's), at the options' thread count
     * (else {@code @Threads}, or the sum of a group's {@code @GroupThreads}, else 1). Only the
     * class's own {@code @Param} fields are read (the benchmarks declare none elsewhere).
     */
    static List<JmhCase> expand(Class<?> benchmarkClass, Options options) {
        final List<Pattern> includes = options.getIncludes().stream().map(Pattern::compile).toList();
        final Map<String, Integer> benchmarks = new LinkedHashMap<>();
        for (Method m : benchmarkClass.getMethods()) {
            if (!m.isAnnotationPresent(Benchmark.class)) {
                continue;
            }
            final Group group = m.getAnnotation(Group.class);
            final String name = benchmarkClass.getName() + "." + (group == null ? m.getName() : group.value());
            if (includes.stream().noneMatch(p -> p.matcher(name).find())) {
                continue;
            }
            final GroupThreads groupThreads = m.getAnnotation(GroupThreads.class);
            final Threads threads = m.isAnnotationPresent(Threads.class) ? m.getAnnotation(Threads.class)
                    : benchmarkClass.getAnnotation(Threads.class);
            final int own = group != null ? (groupThreads == null ? 1 : groupThreads.value()) : threads == null ? 1 : threads.value();
            benchmarks.merge(name, own, group != null ? Integer::sum : (a, b) -> a);
        }
        final List<Map<String, String>> combinations = combinations(benchmarkClass, options);
        final List<JmhCase> cases = new ArrayList<>();
        benchmarks.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(b -> {
            final int threads = options.getThreads().orElse(b.getValue());
            for (Map<String, String> params : combinations) {
                cases.add(new JmhCase(b.getKey(), params, threads));
            }
        });
        return cases;
    }

    /** The names of the {@code @Param} fields {@code benchmarkClass} declares. */
    static Set<String> declaredParams(Class<?> benchmarkClass) {
        final Set<String> names = new LinkedHashSet<>();
        for (Field f : benchmarkClass.getFields()) {
            if (f.isAnnotationPresent(Param.class)) {
                names.add(f.getName());
            }
        }
        return names;
    }

    /** The cartesian product of the class's {@code @Param} values, the options' where set. */
    private static List<Map<String, String>> combinations(Class<?> benchmarkClass, Options options) {
        List<Map<String, String>> out = List.of(Map.of());
        for (Field f : benchmarkClass.getFields()) {
            final Param param = f.getAnnotation(Param.class);
            if (param == null) {
                continue;
            }
            final List<String> values = new ArrayList<>(options.getParameter(f.getName())
                    .orElse(Arrays.asList(param.value())));
            final List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : out) {
                for (String value : values) {
                    final Map<String, String> extended = new LinkedHashMap<>(partial);
                    extended.put(f.getName(), value);
                    next.add(extended);
                }
            }
            out = next;
        }
        return out;
    }
}
