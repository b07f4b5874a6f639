package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.CommonSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code run <experiment|all> --plan}: the result groups a run would emit, one line each, without
 * running JMH. They come from the same options the run gives JMH ({@link JmhExperiment#runs}),
 * expanded into the cases JMH would run ({@link JmhCase#expand}), each turned into its groups as
 * the converter's ({@link ResultGroups#of}); the params leave out the runner params of
 * {@code common.toml} ({@code preset}, {@code pinning}, {@code thread}, ...), so a group is listed
 * once. {@code --verify} checks a run's results against the same groups ({@link ResultCheck}).
 *
 * <pre>{@code
 * {"kind":"plan","experiment":"memory-walk","language":"java","variant":"linear",
 *  "params":{"size_bytes":268435456,"memory":"off-heap","huge_pages":false}}
 * }</pre>
 */
final class Plan {
    private Plan() {
    }

    /** The plan lines of {@code experiment} at {@code at}'s preset, in run order. */
    static List<Map<String, Object>> lines(JmhExperiment experiment, ExperimentAt at, CommonSpec common) {
        final List<Map<String, Object>> lines = new ArrayList<>();
        for (ResultGroup group : groups(experiment, at, common)) {
            final Map<String, Object> line = new LinkedHashMap<>();
            line.put("kind", "plan");
            line.put("experiment", group.experiment());
            line.put("language", "java");
            line.put("variant", group.variant());
            line.put("params", group.params());
            lines.add(line);
        }
        return lines;
    }

    /** The groups of {@code experiment} at {@code at}'s preset without the runner params, each once, in run order. */
    static List<ResultGroup> groups(JmhExperiment experiment, ExperimentAt at, CommonSpec common) {
        final Set<ResultGroup> groups = new LinkedHashSet<>();
        for (JmhRun run : JmhRun.withCases(experiment.runs(at))) {
            for (JmhCase c : JmhCase.expand(run.benchmark(), run.options().build())) {
                for (ResultGroup group : ResultGroups.of(c, experiment, at)) {
                    final Map<String, Object> params = new LinkedHashMap<>(group.params());
                    params.keySet().removeAll(common.runnerParams());
                    groups.add(new ResultGroup(group.experiment(), group.variant(), params));
                }
            }
        }
        return new ArrayList<>(groups);
    }
}
