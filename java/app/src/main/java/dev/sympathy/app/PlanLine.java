package dev.sympathy.app;

import dev.sympathy.results.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The line {@code run <experiment> --plan} prints per result group instead of measuring it:
 * {@code kind} {@code plan}, the experiment, {@code language} {@code java}, the variant and the
 * params its results will carry, in that order, as one JSON object.
 *
 * <pre>{@code
 * PlanLine.json("ipc", "ring", Map.of("count", 1000))
 * // {"kind":"plan","experiment":"ipc","language":"java","variant":"ring","params":{"count":1000}}
 * }</pre>
 */
final class PlanLine {
    private PlanLine() {}

    /** The plan line of {@code variant} of {@code experiment} with {@code params}. */
    static String json(String experiment, String variant, Map<String, Object> params) {
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("kind", "plan");
        plan.put("experiment", experiment);
        plan.put("language", "java");
        plan.put("variant", variant);
        plan.put("params", params);
        return Json.write(plan);
    }
}
