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
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A put of a new key racing a get of it: the reader's acquire load of the slot pairs with the
 * writer's release store (SYNC POINT slot), so it sees no value or the whole record. r1: the
 * version read (0 absent, -1 torn).
 */
@JCStressTest
@Description("map: MapWriter.put of a new key racing MapFile.get; never a torn value")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "not published yet: absent")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "the whole value")
@Outcome(expect = FORBIDDEN, desc = "a torn value: the slot was visible before the record")
@State
public class MapPutGetTest {
    private final MapFile map = Values.map();
    private final MapWriter writer = map.writer();

    @Actor
    public void put() {
        writer.put(Values.KEY, Values.value(2));
    }

    @Actor
    public void get(I_Result r) {
        r.r1 = Values.read(map);
    }
}
