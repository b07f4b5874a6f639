package dev.sympathy.jmh.runner;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link JmhExperiment} of single-shot runs whose every metric is an extra its benchmark writes
 * (offheap-map, serialization, back-pressure): the JMH score of such a run (the whole run, its
 * checks included) is not reported, and the experiment says only the groups of its extras.
 *
 * <pre>{@code
 * public final class SerializationExperiment implements ExtrasOnlyExperiment {
 *     public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
 *         return List.of(Serialization.resultParams((int) c.number("count")));
 *     }
 * }
 * }</pre>
 */
public interface ExtrasOnlyExperiment extends JmhExperiment {
    /** Empty: the score of a single-shot run is not reported; its metrics are all extras. */
    @Override
    default Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
        return Optional.empty();
    }

    /** Without a default here: an experiment whose metrics are all extras names their groups. */
    @Override
    List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at);
}
