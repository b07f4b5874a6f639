package dev.sympathy.jmh.serialization;

import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.ExtrasOnlyExperiment;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * serialization ({@code experiments/serialization.toml}) under JMH: {@link Serialization}, one run
 * per number of warm-up shots its codecs need, in forks whose young generation holds a shot's
 * decoded orders. Single-shot: the score (the whole run, checks included) is not reported; every
 * metric ({@code write_ns}, {@code read_ns}, {@code encoded_bytes}) is an extra.
 *
 * <pre>{@code
 * java/jmh/run run serialization --plan --quick
 * // {"kind":"plan","experiment":"serialization","language":"java","variant":"java-serialization","params":{"count":100000}} ...
 * }</pre>
 */
public final class SerializationExperiment implements ExtrasOnlyExperiment {
    @Override
    public String id() {
        return "serialization";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // the unsafe variant is the seed's sun.misc.Unsafe, as struct-table's unsafe-flyweight;
        // warm-up shots until C2 has compiled the codecs (Serialization.warmupShots), one run
        // per number of shots (java-serialization is warm sooner); a young generation that
        // holds a whole shot's decoded orders, emptied between shots, so that no collection
        // pauses inside a shot's timed reads (Serialization.youngGenMib): the benchmark
        // empties it and waits for a quiet JIT before each measured shot (Quiet.settle).
        // The sbe variant's Agrona buffer reaches jdk.internal.misc.Unsafe. Its generated
        // encoder and decoder run without Agrona's per-access bounds checks
        // (agrona.disable.bounds.checks; in these forks only SbeCodec uses an Agrona buffer):
        // a message's extent is checked once, as Rust's generated codec's is (SbeCodec's slot
        // i of BATCH lies at i * SIZE of a BATCH * SIZE buffer; checkOrder checks a read's
        // length), and SbeMessagesTest.everyOrderAccessStaysWithinItsMessage shows that no
        // accessor of the order reaches outside it. With the checks an encode took 592
        // instructions, without them 120 (Rust's: 58; ci/java-instructions).
        final int count = Math.toIntExact(at.max("count"));
        final int presetWarmups = at.iterations().warmupIterations();
        final long young = Serialization.youngGenMib(count);
        final Map<Integer, List<String>> byWarmups = new LinkedHashMap<>();
        for (String variant : at.javaVariants()) {
            byWarmups.computeIfAbsent(Serialization.warmupShots(count, presetWarmups, variant), k -> new ArrayList<>())
                    .add(variant);
        }
        final List<JmhRun> runs = new ArrayList<>();
        byWarmups.forEach((warmups, variants) -> runs.add(new JmhRun(Serialization.class,
                at.options(Serialization.class, variants).warmupIterations(warmups),
                List.of(JmhRun.UNSAFE_ALLOW, "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                        SbeCodec.NO_PER_ACCESS_BOUNDS_CHECKS,
                        "-Xmn" + young + "m", "-Xms" + (2 * young) + "m", "-Xmx" + (2 * young) + "m"))));
        return runs;
    }

    @Override
    public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        return List.of(Serialization.resultParams((int) c.number("count")));
    }
}
