package dev.sympathy.jcstress.map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sympathy.map.MapFile;
import dev.sympathy.map.MapWriter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An overwrite, a remove and a put again racing two gets: each get sees a whole value of one
 * of the states, and the second never an earlier state than the first. r1, r2: the versions
 * read (0 absent, -1 torn); the states in order are 1, 2, absent, 3.
 */
@JCStressTest
@Description("map: put, remove, put of one key racing two gets; whole values, never going back")
@Outcome(id = {"1, 1", "1, 2", "1, 0", "1, 3", "2, 2", "2, 0", "2, 3", "0, 0", "0, 3", "3, 3"},
        expect = ACCEPTABLE, desc = "whole values, in the order they were put")
@Outcome(expect = FORBIDDEN, desc = "a torn value, or a state older than one seen before")
@State
public class MapOverwriteGetTest {
    private final MapFile map = Values.map();
    private final MapWriter writer = map.writer();

    public MapOverwriteGetTest() {
        writer.put(Values.KEY, Values.value(1));
    }

    @Actor
    public void write() {
        writer.put(Values.KEY, Values.value(2));
        writer.remove(Values.KEY);
        writer.put(Values.KEY, Values.value(3));
    }

    @Actor
    public void get(II_Result r) {
        r.r1 = Values.read(map);
        r.r2 = Values.read(map);
    }
}
