package dev.sympathy.jmh.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every result group a case emits: its JMH score's and its extras', each once, as its
 * {@link JmhExperiment} says. {@code --plan} prints these; the {@link Converter} writes the
 * score's through {@link #score}, and the benchmarks write the extras' through the same functions
 * {@link JmhExperiment#extrasParams} calls.
 *
 * <pre>{@code
 * ResultGroups.of(c, experiment, at)
 * // [ResultGroup[experiment=memory-walk, variant=linear, params={size_bytes=268435456, memory=off-heap, huge_pages=false}]]
 * }</pre>
 */
final class ResultGroups {
    private ResultGroups() {
    }

    /**
     * The groups of case {@code c} of {@code experiment}, the score's first.
     *
     * @throws IllegalArgumentException when a param the experiment reads is missing or not a number
     */
    static List<ResultGroup> of(JmhCase c, JmhExperiment experiment, ExperimentAt at) {
        final List<ResultGroup> out = new ArrayList<>();
        score(c, experiment, at).ifPresent(out::add);
        for (Map<String, Object> params : experiment.extrasParams(c, at)) {
            final ResultGroup group = new ResultGroup(experiment.id(), c.variant(), params);
            if (!out.contains(group)) {
                out.add(group);
            }
        }
        return out;
    }

    /** The group of the records made from the JMH score of {@code c}; empty where the score is not reported. */
    static Optional<ResultGroup> score(JmhCase c, JmhExperiment experiment, ExperimentAt at) {
        return experiment.score(c, at).map(score -> new ResultGroup(experiment.id(), c.variant(), score.params()));
    }
}
