package dev.sympathy.jmh.map;

import dev.sympathy.map.MapConfig;
import dev.sympathy.map.MapDescriptor;
import dev.sympathy.map.MapFile;
import dev.sympathy.map.MapStats;
import dev.sympathy.map.MapWriter;
import dev.sympathy.map.ValueFiller;
import dev.sympathy.map.user.FlyweightCodec;
import dev.sympathy.map.user.JavaSerializationCodec;
import dev.sympathy.map.user.User;
import dev.sympathy.map.user.UserCodec;
import dev.sympathy.map.user.UserView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code offheap-flyweight} and {@code offheap-java-serialization}: the map file of
 * docs/map-layout.md (dev.sympathy.map), users encoded by a {@link UserCodec}: the flyweight,
 * read in place through a reused {@link UserView}, or the JDK's serialization, read back into a
 * {@link User} per lookup. A put encodes straight into the record ({@link MapWriter#putWith}).
 */
final class OffheapStore implements UserStore {
    private final Path path;
    private final UserCodec codec;
    private final boolean flyweight;
    private MapFile map;
    private MapWriter writer;
    private final UserView view = new UserView();
    private final Filler filler = new Filler();

    /** A reused filler: the user to encode is set before each put (no allocation per put). */
    private final class Filler implements ValueFiller {
        User user;

        @Override
        public void fill(MemorySegment data, long offset, int length) {
            codec.encode(user, data, offset);
        }
    }

    OffheapStore(Path path, UserCodec codec, long users) {
        this.path = path;
        this.codec = codec;
        this.flyweight = codec instanceof FlyweightCodec;
        MapConfig config = dev.sympathy.map.user.Users.mapConfig(users);
        if (!flyweight) {
            // Java serialization's values are ~3x the flyweight's: room for them.
            config = new MapConfig(config.slots(), config.dataCapacity() * 4, config.maxValueLength(), codec.format());
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.map = MapFile.create(path, config);
        this.writer = map.writer();
    }

    @Override
    public int friendCount(long key) {
        long record = map.find(key);
        if (record < 0) {
            return -1;
        }
        if (flyweight) {
            wrapView(record);
            UserStore.checkFound(key, view.id());
            return view.friendCount();
        }
        User user = decode(record);
        UserStore.checkFound(key, user.id());
        return user.friends().length;
    }

    @Override
    public int friends(long key, long[] out) {
        long record = map.find(key);
        if (record < 0) {
            return -1;
        }
        if (flyweight) {
            wrapView(record);
            int n = view.friendCount();
            for (int k = 0; k < n; k++) {
                out[k] = view.friend(k);
            }
            return n;
        }
        long[] friends = decode(record).friends();
        System.arraycopy(friends, 0, out, 0, friends.length);
        return friends.length;
    }

    /** Points the reused {@link #view} at {@code record}'s value, to read it in place (the flyweight). */
    private void wrapView(long record) {
        view.wrap(map.data(), MapFile.valueOffset(record), map.valueLength(record));
    }

    /** {@code record}'s value decoded into a new {@link User} (what a java-serialization lookup pays for). */
    private User decode(long record) {
        return codec.decode(map.data(), MapFile.valueOffset(record), map.valueLength(record));
    }

    @Override
    public void put(User user) {
        filler.user = user;
        writer.putWith(user.id(), codec.encodedLength(user), filler);
    }

    @Override
    public long nativeBytes() {
        return map.stats().fileLength();
    }

    @Override
    public long usedNativeBytes() {
        MapStats s = map.stats();
        return MapDescriptor.dataAreaOffset(s.slots()) + s.dataEnd();
    }

    @Override
    public double reopenMs() {
        writer.close();
        map.close();
        long start = System.nanoTime();
        map = MapFile.open(path);
        long record = map.find(0);
        double ms = (System.nanoTime() - start) / 1e6;
        if (record < 0) {
            throw new IllegalStateException("user 0 is missing after the reopen");
        }
        writer = null;
        return ms;
    }

    @Override
    public void close() {
        if (writer != null) {
            writer.close();
        }
        map.close();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The codec of a variant. */
    static UserCodec codecOf(String variant) {
        return variant.equals("offheap-java-serialization") ? new JavaSerializationCodec() : FlyweightCodec.INSTANCE;
    }
}
