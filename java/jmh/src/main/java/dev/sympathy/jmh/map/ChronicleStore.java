package dev.sympathy.jmh.map;

import dev.sympathy.map.user.FlyweightCodec;
import dev.sympathy.map.user.User;
import dev.sympathy.map.user.UserView;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * {@code chronicle-map}: Chronicle Map 3.26 persisted to a file, the map Java users reach for
 * today, holding each user's flyweight bytes as a {@code byte[]} value (encoded per put into a
 * new array; a get copies the value out into a new array, read through a {@link UserView}).
 * Runs on JDK 25 with the JVM flags {@link #JVM_FLAGS}.
 */
final class ChronicleStore implements UserStore {
    /**
     * What Chronicle needs of JDK 25: its JDK 17 list (reflection into java.base and javac,
     * sun.misc), the sun.nio.ch mapping internals, sun.misc.Unsafe's memory access, and no
     * analytics call home.
     */
    static final java.util.List<String> JVM_FLAGS = java.util.List.of(
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-Dchronicle.analytics.disable=true", "-Dchronicle.announcer.disable=true");

    private final Path path;
    private final long users;
    private final double meanValueSize;
    private ChronicleMap<Long, byte[]> map;
    private final UserView view = new UserView();

    ChronicleStore(Path path, long users) {
        this.path = path;
        this.users = users;
        long bytes = 0;
        long sample = Math.min(users, 100_000);
        for (long id = 0; id < sample; id++) {
            bytes += dev.sympathy.map.user.Users.flyweightLength(id, users);
        }
        this.meanValueSize = sample == 0 ? 64 : (double) bytes / sample;
        try {
            Files.deleteIfExists(path);
            this.map = open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ChronicleMap<Long, byte[]> open() throws IOException {
        return ChronicleMap.of(Long.class, byte[].class).name("users").entries(Math.max(1, users))
                .averageValueSize(meanValueSize).createPersistedTo(path.toFile());
    }

    private void check(long key, byte[] bytes) {
        view.wrap(MemorySegment.ofArray(bytes), 0, bytes.length);
        UserStore.checkFound(key, view.id());
    }

    @Override
    public int friendCount(long key) {
        byte[] bytes = map.get(key);
        if (bytes == null) {
            return -1;
        }
        check(key, bytes);
        return view.friendCount();
    }

    @Override
    public int friends(long key, long[] out) {
        byte[] bytes = map.get(key);
        if (bytes == null) {
            return -1;
        }
        check(key, bytes);
        int n = view.friendCount();
        for (int k = 0; k < n; k++) {
            out[k] = view.friend(k);
        }
        return n;
    }

    @Override
    public void put(User user) {
        byte[] bytes = new byte[FlyweightCodec.INSTANCE.encodedLength(user)];
        FlyweightCodec.INSTANCE.encode(user, MemorySegment.ofArray(bytes), 0);
        map.put(user.id(), bytes);
    }

    @Override
    public long nativeBytes() {
        return new File(path.toString()).length();
    }

    @Override
    public long usedNativeBytes() {
        return nativeBytes();
    }

    @Override
    public double reopenMs() {
        map.close();
        long start = System.nanoTime();
        try {
            map = open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] user0 = map.get(0L);
        double ms = (System.nanoTime() - start) / 1e6;
        if (user0 == null) {
            throw new IllegalStateException("user 0 is missing after the reopen");
        }
        return ms;
    }

    @Override
    public void close() {
        map.close();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
