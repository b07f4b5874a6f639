package dev.sympathy.jmh.runner;

import java.util.Map;

/**
 * The records of one experiment, variant and params (one per metric): what a run emits per
 * case, and what {@code --plan} prints as one line.
 *
 * @param experiment the catalog's experiment name, {@code memory-walk}
 * @param variant Java's variant name (the catalog's {@code java} where set)
 * @param params the result params in the catalog's names, typed as in the results
 */
record ResultGroup(String experiment, String variant, Map<String, Object> params) {
}
