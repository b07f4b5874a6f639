package dev.sympathy.jmh.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.Preset;
import dev.sympathy.results.ResultRecord;
import dev.sympathy.results.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --verify}: a run's records held against its own plan and the catalog. The records here
 * are made from the plan itself, then spoiled one way at a time.
 */
class ResultCheckTest {
    private static final Catalog CATALOG = Catalog.fromProperty();
    private static final JmhExperiments FOUND = JmhExperiments.found();

    private static JmhExperiment experiment(String id) {
        return FOUND.byId(id).orElseThrow();
    }

    private static List<ResultGroup> plan(String id) {
        return Plan.groups(experiment(id), FOUND.at(experiment(id), CATALOG, Preset.SMOKE), CATALOG.common());
    }

    /** One record of {@code metric} per planned group, as the runner writes them (runner params added). */
    private static List<Map<String, Object>> recordsOf(List<ResultGroup> groups, String metric, String unit) {
        final List<Map<String, Object>> out = new ArrayList<>();
        for (ResultGroup g : groups) {
            final Map<String, Object> params = new LinkedHashMap<>(g.params());
            params.put("preset", "smoke");
            params.put("pinning", "unpinned");
            out.add(ResultRecord.of(g.experiment(), g.variant(), params, metric, unit, Stats.of(List.of(4.0)), "ok"));
        }
        return out;
    }

    private static List<String> problems(String id, List<Map<String, Object>> records) {
        return ResultCheck.problems(experiment(id), plan(id), records, CATALOG);
    }

    @Test
    void shouldPassEveryPlannedGroupBackAndChecked() {
        assertEquals(List.of(), problems("memory-walk", recordsOf(plan("memory-walk"), "ns_per_op", "ns")));
    }

    @Test
    void shouldNameAPlannedGroupThatDidNotComeBack() {
        final List<ResultGroup> planned = plan("memory-walk");
        final List<Map<String, Object>> records = recordsOf(planned, "ns_per_op", "ns");
        records.remove(0);
        assertEquals(List.of("memory-walk " + planned.get(0).variant() + " " + planned.get(0).params()
                + ": planned, but no result came back"), problems("memory-walk", records));
    }

    @Test
    void shouldNameAResultOfAGroupThePlanLacks() {
        final List<ResultGroup> planned = plan("memory-walk");
        final List<Map<String, Object>> records = recordsOf(planned, "ns_per_op", "ns");
        records.addAll(recordsOf(List.of(new ResultGroup("memory-walk", "sideways", planned.get(0).params())),
                "ns_per_op", "ns"));
        final List<String> problems = problems("memory-walk", records);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals(true, problems.get(0).startsWith("memory-walk sideways ns_per_op "), problems.get(0));
        assertEquals(true, problems.get(0).endsWith(": a result of a group the plan does not list"), problems.get(0));
    }

    @Test
    void shouldNameAFailedCheckAMetricTheEntryLacksAndAUnitNotTheCatalogs() {
        final List<ResultGroup> one = plan("memory-walk").subList(0, 1);
        final List<ResultGroup> rest = plan("memory-walk").subList(1, plan("memory-walk").size());
        final List<Map<String, Object>> records = new ArrayList<>(recordsOf(rest, "ns_per_op", "ns"));
        final Map<String, Object> failed = recordsOf(one, "ns_per_op", "ns").get(0);
        failed.put("check", "failed");
        records.add(failed);
        records.addAll(recordsOf(one, "ns_per_hop", "ns"));
        records.addAll(recordsOf(one, "ns_per_op", "ms"));
        final String variant = one.get(0).variant();
        assertEquals(List.of("memory-walk " + variant + " ns_per_op: check failed",
                "memory-walk " + variant + " ns_per_hop: metric ns_per_hop is not among experiments/memory-walk.toml's"
                        + " metrics [ns_per_op]",
                "memory-walk " + variant + " ns_per_op: unit ms, the catalog's is ns"), problems("memory-walk", records));
    }

    @Test
    void shouldHoldBackPressuresCompletedAndRejectedToTheCount() {
        final List<ResultGroup> planned = plan("back-pressure");
        final List<Map<String, Object>> records = new ArrayList<>();
        for (Map<String, Object> rec : recordsOf(planned, "completed", "requests")) {
            final long count = ((Number) ((Map<?, ?>) rec.get("params")).get("count")).longValue();
            rec.put("value", (double) count - 10);
            rec.put("stats", Stats.of(List.of((double) count - 10)).toJson());
            records.add(rec);
        }
        for (Map<String, Object> rec : recordsOf(planned, "rejected", "requests")) {
            rec.put("value", 10.0);
            rec.put("stats", Stats.of(List.of(10.0)).toJson());
            records.add(rec);
        }
        assertEquals(List.of(), problems("back-pressure", records));

        records.get(0).put("value", 1.0);
        records.get(0).put("stats", Stats.of(List.of(1.0)).toJson());
        final Map<?, ?> params = (Map<?, ?>) records.get(0).get("params");
        assertEquals(List.of("back-pressure " + records.get(0).get("variant") + " load=" + params.get("load")
                + ": completed + rejected = 11.0, count " + params.get("count")), problems("back-pressure", records));
    }

    @Test
    void shouldNameAVariantAndLoadThatReportsNoRejectedCount() {
        final List<ResultGroup> planned = plan("back-pressure");
        final List<Map<String, Object>> records = recordsOf(planned, "completed", "requests");
        final List<String> problems = problems("back-pressure", records);
        assertEquals(planned.size() * 2, problems.size(), problems.toString());
        assertEquals(true, problems.stream().anyMatch(p -> p.endsWith(": reports [completed], not both completed and rejected")),
                problems.toString());
    }
}
