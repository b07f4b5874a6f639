package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.CommonSpec;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.Preset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code run <experiment|all> --plan}: the result groups a run would emit, one line each, without
 * running JMH. They come from the same options the run gives JMH ({@link Experiment#runs}),
 * expanded into the cases JMH would run ({@link JmhCase#expand}), each turned into its groups by
 * the converter ({@link Converter#groups}); the params leave out the runner params of
 * {@code common.toml} ({@code preset}, {@code pinning}, {@code thread}, ...), so a group is listed
 * once.
 *
 * <pre>{@code
 * {"kind":"plan","experiment":"memory-walk","language":"java","variant":"linear",
 *  "params":{"size_bytes":268435456,"memory":"off-heap","huge_pages":false}}
 * }</pre>
 */
final class Plan {
    private Plan() {
    }

    /** The plan lines of {@code experiment} at {@code preset}, in run order. */
    static List<Map<String, Object>> lines(Experiment experiment, Preset preset, ExperimentSpec spec, CommonSpec common) {
        final Set<Map<String, Object>> lines = new LinkedHashSet<>();
        for (Experiment.Run run : experiment.runsAt(preset, spec)) {
            for (JmhCase c : JmhCase.expand(run.benchmark(), run.options().build())) {
                for (ResultGroup group : Converter.groups(c)) {
                    final Map<String, Object> params = new LinkedHashMap<>(group.params());
                    params.keySet().removeAll(common.runnerParams());
                    final Map<String, Object> line = new LinkedHashMap<>();
                    line.put("kind", "plan");
                    line.put("experiment", group.experiment());
                    line.put("language", "java");
                    line.put("variant", group.variant());
                    line.put("params", params);
                    lines.add(line);
                }
            }
        }
        return new ArrayList<>(lines);
    }
}
