package dev.sympathy.app;

import dev.sympathy.map.Grows;
import dev.sympathy.map.MapConfig;
import dev.sympathy.map.MapDescriptor;
import dev.sympathy.map.MapException;
import dev.sympathy.map.MapFile;
import dev.sympathy.map.MapStats;
import dev.sympathy.map.MapWriter;
import dev.sympathy.map.Stress;
import dev.sympathy.map.ValueFormatException;
import dev.sympathy.map.user.FlyweightCodec;
import dev.sympathy.map.user.User;
import dev.sympathy.map.user.UserJson;
import dev.sympathy.map.user.UserView;
import dev.sympathy.map.user.Users;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.time.Duration;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code sidecar map ...}: the Java twins of {@code sympathy map create}, {@code copy},
 * {@code load-users}, {@code verify-users}, {@code watch-users}, {@code get}, {@code inspect},
 * {@code layout}, {@code stress-write} and {@code stress-read}, on
 * the FFM map ({@code dev.sympathy.map}), so each language checks a file the other wrote.
 */
final class MapCommands {
    private MapCommands() {}

    static final String USAGE = """
              map create PATH --entries N [--mean-value-length L]   an empty map sized for N entries,
                      | --slots S --data-capacity B            or of these sizes (64k, 1m ok)
                      [--max-value-length M] [--value-format bytes|user-flyweight]
              map copy SOURCE DESTINATION [--slots S] [--data-capacity B]   the live entries into a new map
                                                         (default: twice the slots, twice the live bytes)
              map load-users PATH --users N [--initial-users M] [--flush] [--resume]   put users 0..N (created
                                                         when missing, sized for M users (default N): the map
                                                         grows past them); --resume keeps the users already there
              map verify-users PATH --users N            check the map holds exactly users 0..N, every field
              map watch-users PATH --users N [--timeout-seconds S]   while a load-users runs: check, pass after
                                                         pass, that every user counted is present and equal,
                                                         until all N are (S, default 600: the most to wait)
              map get PATH KEY                           a user as JSON, other values in hex
              map inspect PATH                           header, counters, writer
              map layout                                 the descriptor as NAME=value lines
              map stress-write PATH --ops N [--keys K] [--first J] [--seconds S] [--ack FILE]
                                                         the stress schedule, as the writer (--seconds: the
                                                         ops spread over S seconds, else as fast as it can;
                                                         --ack: the count of operations that returned, kept
                                                         in FILE's first 8 bytes for a crash test)
              map stress-read PATH [--keys K] [--seconds S] [--min-hits H]   check every value read""";

    static void run(String[] argv) throws InterruptedException, IOException {
        if (argv.length < 2) {
            throw new UsageException("map: which command?\n" + USAGE);
        }
        switch (argv[1]) {
            case "create" -> create(argv);
            case "copy" -> copy(argv);
            case "load-users" -> loadUsers(argv);
            case "verify-users" -> verifyUsers(argv);
            case "watch-users" -> watchUsers(argv);
            case "get" -> get(argv);
            case "inspect" -> inspect(argv);
            case "layout" -> layout();
            case "stress-write" -> stressWrite(argv);
            case "stress-read" -> stressRead(argv);
            default -> throw new UsageException("map: unknown command '" + argv[1] + "'\n" + USAGE);
        }
    }

    /**
     * What a fault in a map's mapping (SIGBUS) means and what to do, in the Rust tools' words
     * ({@code report_on_sigbus_in_map}); {@code path} may be null.
     */
    static String mappedFault(Path path) {
        return (path == null ? "a map file" : path.toString()) + ": the map's memory became inaccessible (SIGBUS):"
                + " the file was truncated or resized while mapped, or its filesystem ran out of space for a page"
                + " being written. Stop the processes using it, restore the map from a copy or rebuild it on a"
                + " filesystem with room for it (`df`), and never truncate or resize a map file in use";
    }

    static void expectUsers(MapFile map) {
        if (map.valueFormat() != MapDescriptor.VALUE_FORMAT_USER_FLYWEIGHT) {
            throw new ValueFormatException(map.valueFormat(), MapDescriptor.VALUE_FORMAT_USER_FLYWEIGHT);
        }
    }

    /** {@code map create}: the sizes as {@code sympathy map create} takes and defaults them. */
    private static void create(String[] argv) {
        Args args = new Args("map create", argv, 2, Set.of("entries", "mean-value-length", "slots", "data-capacity",
                "max-value-length", "value-format"), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map file to create)"));
        args.expectPositional(1);
        MapConfig config;
        if (args.flag("entries")) {
            config = MapConfig.forEntries(args.longOption("entries", 0, Long.MAX_VALUE, 0),
                    args.longOption("mean-value-length", 0, Long.MAX_VALUE, 100));
        } else if (args.flag("slots") && args.flag("data-capacity")) {
            long slots = args.longOption("slots", 0, Long.MAX_VALUE, 0);
            long dataCapacity = args.longOption("data-capacity", 0, Long.MAX_VALUE, 0);
            long room = Math.max(0, dataCapacity - MapDescriptor.DATA_START - MapDescriptor.RECORD_HEADER_LENGTH);
            config = new MapConfig(slots, dataCapacity, (int) Math.min(room, 64 * 1024),
                    MapDescriptor.VALUE_FORMAT_BYTES);
        } else {
            throw new UsageException("map create: give --entries N, or --slots N with --data-capacity BYTES");
        }
        if (args.flag("max-value-length")) {
            config = new MapConfig(config.slots(), config.dataCapacity(),
                    (int) args.longOption("max-value-length", 0, 0xFFFF_FFFFL, 0), config.valueFormat());
        }
        config = config.withValueFormat(switch (args.string("value-format", "bytes")) {
            case "bytes" -> MapDescriptor.VALUE_FORMAT_BYTES;
            case "user-flyweight" -> MapDescriptor.VALUE_FORMAT_USER_FLYWEIGHT;
            default -> throw new UsageException("map create: --value-format is bytes or user-flyweight");
        });
        try (MapFile map = MapFile.create(path, config)) {
            MapStats s = map.stats();
            System.out.println("created " + path + ": " + s.slots() + " slots, " + s.dataCapacity() + " bytes of data,"
                    + " values up to " + s.maxValueLength() + " bytes (" + MapDescriptor.formatName(s.valueFormat())
                    + "), " + s.fileLength() + " bytes in all");
        }
    }

    /** {@code map copy}: the live entries only, as {@code sympathy map copy}, with its defaults. */
    private static void copy(String[] argv) throws IOException {
        Args args = new Args("map copy", argv, 2, Set.of("slots", "data-capacity"), Set.of());
        Path sourcePath = Path.of(args.positional(0, "SOURCE (the map to copy)"));
        Path destinationPath = Path.of(args.positional(1, "DESTINATION (the new map)"));
        args.expectPositional(2);
        try (MapFile source = MapFile.openReadOnly(sourcePath)) {
            MapStats s = source.stats();
            long[] live = {0, 0}; // keys, bytes of their records
            source.forEach((key, data, offset, length) -> {
                live[0]++;
                live[1] += MapDescriptor.recordLength(length);
            });
            MapConfig config = new MapConfig(
                    args.longOption("slots", 0, Long.MAX_VALUE, Math.min(s.slots() * 2, MapDescriptor.MAX_SLOTS)),
                    args.longOption("data-capacity", 0, Long.MAX_VALUE,
                            Math.max(live[1] * 2 + MapDescriptor.DATA_START, s.dataCapacity())),
                    s.maxValueLength(), s.valueFormat());
            long needData = MapDescriptor.DATA_START + live[1];
            if (live[0] > MapDescriptor.maxUsedSlots(config.slots()) || needData > config.dataCapacity()) {
                throw new IllegalStateException("map copy: " + destinationPath + " would be too small for the " + live[0]
                        + " keys of " + sourcePath + ": they need at least " + slotsFor(live[0])
                        + " slots and a data capacity of " + needData + " bytes (give larger --slots and --data-capacity,"
                        + " or leave them out); nothing was written");
            }
            if (Files.exists(destinationPath, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalStateException("map copy: " + destinationPath + " exists; give a new path (nothing was"
                        + " written)");
            }
            // Built beside the destination and linked into place whole: a failed copy leaves no map there.
            Path partial = Path.of(destinationPath + ".partial-" + ProcessHandle.current().pid());
            try {
                long copied;
                try (MapFile destination = MapFile.create(partial, config);
                        MapWriter writer = destination.writer()) {
                    source.forEach((key, data, offset, length) -> writer.putWith(key, length,
                            (to, at, n) -> MemorySegment.copy(data, offset, to, at, n)));
                    writer.flush();
                    copied = writer.size();
                }
                Files.createLink(destinationPath, partial);
                System.out.println("copied " + copied + " keys from " + sourcePath + " into " + destinationPath
                        + " (" + config.slots() + " slots, " + config.dataCapacity() + " data bytes)");
            } finally {
                Files.deleteIfExists(partial);
            }
        }
    }

    /** The smallest power-of-two slot count whose load limit holds {@code keys}. */
    private static long slotsFor(long keys) {
        long slots = MapDescriptor.MIN_SLOTS;
        while (MapDescriptor.maxUsedSlots(slots) < keys && slots < MapDescriptor.MAX_SLOTS) {
            slots *= 2;
        }
        return slots;
    }

    /**
     * {@code map load-users}: puts users 0..N, each as {@link Users#generate} makes it for a
     * population of N. A missing map is created sized for {@code --initial-users} M users
     * (default N); a map sized for fewer than N grows as it fills (layout version 3).
     */
    private static void loadUsers(String[] argv) {
        Args args = new Args("map load-users", argv, 2, Set.of("users", "initial-users"), Set.of("flush", "resume"));
        Path path = Path.of(args.positional(0, "PATH (the map file)"));
        args.expectPositional(1);
        long users = args.requiredLong("users", 0, Long.MAX_VALUE);
        long initialUsers = args.longOption("initial-users", 0, Long.MAX_VALUE, users);
        boolean resume = args.flag("resume");
        long start = System.nanoTime();
        try (MapFile map = Files.exists(path) ? MapFile.open(path)
                : MapFile.create(path, Users.mapConfig(initialUsers))) {
            expectUsers(map);
            try (MapWriter writer = map.writer()) {
                if (writer.tornRecordsDropped() > 0) {
                    System.out.println("removed " + writer.tornRecordsDropped()
                            + " torn records (written after the last flush before the system crashed)");
                }
                FlyweightCodec codec = FlyweightCodec.INSTANCE;
                long kept = 0;
                for (long id = 0; id < users; id++) {
                    User user = Users.generate(id, users);
                    int length = codec.encodedLength(user);
                    if (resume) {
                        byte[] encoded = new byte[length];
                        codec.encode(user, MemorySegment.ofArray(encoded), 0);
                        if (holds(map, id, encoded)) {
                            kept++;
                        } else {
                            writer.put(id, encoded); // encoded already: no second encode in place
                        }
                        continue;
                    }
                    writer.putWith(id, length, (data, at, n) -> codec.encode(user, data, at));
                }
                if (args.flag("flush")) {
                    writer.flush();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                String resumed = resume ? " (" + kept + " were there already, " + (users - kept) + " put)" : "";
                Grows grows = writer.grows();
                String grown = grows.tables() + grows.dataAreas() == 0 ? ""
                        : String.format(Locale.ROOT, "; the table grew %d times (%d slots), the data area %d times (%d"
                                + " bytes); the grows took %.1f ms in all, the longest %.1f ms", grows.tables(),
                                map.tableSlots(), grows.dataAreas(), map.stats().dataCapacity(), grows.totalNanos() / 1e6,
                                grows.longestNanos() / 1e6);
                System.out.printf(Locale.ROOT, "loaded %d users into %s%s in %.2f s (%.0f puts/s); %d keys, %d data bytes%s%n",
                        users, path, resumed, seconds, (users - kept) / seconds, writer.size(), writer.dataEnd(), grown);
            }
        }
    }

    /** Whether {@code map} holds key {@code id} with exactly the value {@code encoded}. */
    private static boolean holds(MapFile map, long id, byte[] encoded) {
        long record = map.find(id);
        return record >= 0 && holdsAt(map, record, encoded);
    }

    private static void verifyUsers(String[] argv) {
        Args args = new Args("map verify-users", argv, 2, Set.of("users"), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map file)"));
        args.expectPositional(1);
        long users = args.requiredLong("users", 0, Long.MAX_VALUE);
        try (MapFile map = MapFile.openReadOnly(path)) {
            expectUsers(map);
            if (map.size() != users) {
                throw new IllegalStateException(path + ": holds " + map.size() + " keys, expected " + users + " users");
            }
            for (long id = 0; id < users; id++) {
                long record = map.find(id);
                if (record < 0) {
                    throw new IllegalStateException("user " + id + " is missing from " + path);
                }
                User found = FlyweightCodec.INSTANCE.decode(map.data(), MapFile.valueOffset(record), map.valueLength(record));
                User expected = Users.generate(id, users);
                if (!found.equals(expected)) {
                    throw new IllegalStateException("user " + id + " differs: found " + found + ", expected " + expected);
                }
            }
            long[] extra = {0};
            map.forEach((key, data, offset, length) -> {
                if (Long.compareUnsigned(key, users) >= 0) {
                    extra[0]++;
                }
            });
            if (extra[0] > 0) {
                throw new IllegalStateException(extra[0] + " keys at or past " + users + " are in the map");
            }
            System.out.println("verified " + users + " users in " + path + ": every field of every user equals the generator's");
        }
    }

    /**
     * {@code map watch-users}: a reader beside a {@code load-users} that grows the map. It opens
     * the map read-only (waiting for it to exist and open, up to the timeout), then passes over
     * it: with {@code c} the count it loads first, every user 0..c must be present and equal to
     * the generator's (the load puts them in order, so each one counted is there); it times every
     * lookup. It stops after a pass that began with all N counted, and says what it saw: the
     * lookups, the longest, and how the table grew and how often it mapped the file.
     *
     * @throws IllegalStateException for a user missing or different (exit 1), or the timeout
     */
    private static void watchUsers(String[] argv) throws InterruptedException {
        Args args = new Args("map watch-users", argv, 2, Set.of("users", "timeout-seconds"), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map file)"));
        args.expectPositional(1);
        long users = args.requiredLong("users", 0, Long.MAX_VALUE);
        long timeoutSeconds = args.longOption("timeout-seconds", 0, 1L << 32, 600);
        long start = System.nanoTime();
        long deadline = start + timeoutSeconds * 1_000_000_000L;
        MapFile opened = null;
        while (opened == null) {
            try {
                opened = MapFile.openReadOnly(path);
            } catch (MapException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new IllegalStateException("map watch-users: " + path + " did not open within "
                            + timeoutSeconds + " s: " + e.getMessage());
                }
                Thread.sleep(20);
            }
        }
        try (MapFile map = opened) {
            expectUsers(map);
            long firstTableSlots = map.tableSlots();
            System.out.printf(Locale.ROOT, "watching %s for %d users: %d counted so far, a table of %d slots%n", path,
                    users, map.size(), firstTableSlots);
            System.out.flush();
            FlyweightCodec codec = FlyweightCodec.INSTANCE;
            long passes = 0;
            long lookups = 0;
            long longestNanos = 0;
            long previous = -1;
            while (true) {
                long counted = map.size();
                if (counted == previous) {
                    Thread.sleep(1); // nothing new since the last pass: the writer is slow, or not started
                }
                previous = counted;
                for (long id = 0; id < counted; id++) {
                    long before = System.nanoTime();
                    long record = map.find(id);
                    longestNanos = Math.max(longestNanos, System.nanoTime() - before);
                    lookups++;
                    if (record < 0) {
                        throw new IllegalStateException("user " + id + " is missing while " + counted
                                + " keys were counted");
                    }
                    User expected = Users.generate(id, users);
                    byte[] encoded = new byte[codec.encodedLength(expected)];
                    codec.encode(expected, MemorySegment.ofArray(encoded), 0);
                    if (!holdsAt(map, record, encoded)) {
                        throw new IllegalStateException("user " + id + " differs: found " + found(map, record)
                                + ", expected " + expected);
                    }
                }
                passes++;
                if (counted == users) {
                    break;
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw new IllegalStateException("map watch-users: timed out after " + timeoutSeconds + " s with "
                            + counted + " of " + users + " keys in " + path + " (is a load-users running?)");
                }
            }
            System.out.printf(Locale.ROOT, "watched %d users in %d passes over %.2f s: %d lookups, every key present and equal;"
                    + " longest lookup %.1f us; the table grew from %d to %d slots, the reader mapped the file %d"
                    + " times%n", users, passes, (System.nanoTime() - start) / 1e9, lookups, longestNanos / 1e3,
                    firstTableSlots, map.tableSlots(), map.mappings());
        }
    }

    /** Whether the record at {@code record} (from {@link MapFile#find}) holds exactly {@code encoded}. */
    private static boolean holdsAt(MapFile map, long record, byte[] encoded) {
        if (map.valueLength(record) != encoded.length) {
            return false;
        }
        long at = MapFile.valueOffset(record);
        return MemorySegment.mismatch(map.data(), at, at + encoded.length, MemorySegment.ofArray(encoded), 0,
                encoded.length) < 0;
    }

    /** The user at {@code record} as its message shows it: decoded, or why it does not decode. */
    private static String found(MapFile map, long record) {
        try {
            return FlyweightCodec.INSTANCE.decode(map.data(), MapFile.valueOffset(record), map.valueLength(record))
                    .toString();
        } catch (RuntimeException e) {
            return "a value that is no user (" + e.getMessage() + ")";
        }
    }

    /** A key as the Rust command takes it: an unsigned 64-bit number, else a usage error naming it. */
    private static long key(String text) {
        try {
            return Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new UsageException("map get: KEY expects a whole number from 0 to 18446744073709551615, got '"
                    + text + "'");
        }
    }

    private static void get(String[] argv) {
        Args args = new Args("map get", argv, 2, Set.of(), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map file)"));
        long key = key(args.positional(1, "KEY"));
        args.expectPositional(2);
        try (MapFile map = MapFile.openReadOnly(path)) {
            long record = map.find(key);
            if (record < 0) {
                throw new IllegalStateException("key " + Long.toUnsignedString(key) + " is not in " + path);
            }
            if (map.valueFormat() == MapDescriptor.VALUE_FORMAT_USER_FLYWEIGHT) {
                StringBuilder out = new StringBuilder();
                UserJson.write(new UserView().wrap(map.data(), MapFile.valueOffset(record), map.valueLength(record)), out);
                System.out.println(out);
            } else {
                System.out.println(HexFormat.of().formatHex(map.getBytes(key)));
            }
        }
    }

    private static void inspect(String[] argv) {
        Args args = new Args("map inspect", argv, 2, Set.of(), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map file)"));
        args.expectPositional(1);
        try (MapFile map = MapFile.openReadOnly(path)) {
            MapStats s = map.stats();
            System.out.println("map " + path);
            System.out.println("  slots            " + s.slots() + " (" + s.usedSlots() + " used: keys and tombstones"
                    + (s.slots() == s.firstSlots() ? "" : "; the first table had " + s.firstSlots()) + ")");
            System.out.println("  keys             " + s.count());
            System.out.println("  data             " + s.dataEnd() + " of " + s.dataCapacity() + " bytes used");
            System.out.println("  max value length " + s.maxValueLength());
            System.out.println("  value format     " + s.valueFormat() + " (" + MapDescriptor.formatName(s.valueFormat()) + ")");
            System.out.println("  file length      " + s.fileLength());
            System.out.println("  created          " + s.creationTimeMs() + " ms since the epoch");
            System.out.println("  recoveries       " + s.recoveries());
            System.out.println("  writer           " + map.writerState() + " (pid " + map.writerPid() + ")");
        }
    }

    private static void layout() {
        for (Map.Entry<String, String> e : MapDescriptor.constants().entrySet()) {
            System.out.println(e.getKey() + "=" + e.getValue());
        }
    }

    private static void stressWrite(String[] argv) throws InterruptedException {
        Args args = new Args("map stress-write", argv, 2, Set.of("keys", "ops", "first", "seconds", "ack"), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map file)"));
        args.expectPositional(1);
        long keys = args.longOption("keys", 1, Long.MAX_VALUE, 1024);
        long ops = args.requiredLong("ops", 0, Long.MAX_VALUE);
        long first = args.longOption("first", 0, Long.MAX_VALUE, 0);
        String paced = args.string("seconds", null);
        double seconds = paced == null ? 0 : Double.parseDouble(paced);
        String ackPath = args.string("ack", null);
        MapConfig config = new MapConfig(Math.max(8, Long.highestOneBit(keys * 2 - 1) << 1),
                Math.max(4096, (ops + 1) * 96), 128, MapDescriptor.VALUE_FORMAT_BYTES);
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long done = 0;
        try (MapFile map = Files.exists(path) ? MapFile.open(path) : MapFile.create(path, config);
                MapWriter writer = map.writer();
                StressAck ack = ackPath == null ? null : new StressAck(Path.of(ackPath))) {
            for (long j = first; j < first + ops; j++) {
                if (paced != null && (done & 4095) == 0) {
                    long now = System.nanoTime();
                    if (now - end >= 0) {
                        break;
                    }
                    // Paced: operation `done` is due at done / ops of the time.
                    long due = start + (long) ((end - start) * ((double) done / Math.max(1, ops)));
                    if (due - now > 0) {
                        Thread.sleep(Duration.ofNanos(due - now));
                    }
                }
                done++;
                long key = Stress.key(keys, j);
                if (Stress.isRemove(j)) {
                    writer.remove(key);
                } else {
                    writer.put(key, Stress.valueOf(key, j));
                }
                if (ack != null) {
                    ack.store(j + 1);
                }
            }
            System.out.printf("stress-write: %d operations on %d keys in %.2f s; %d keys left%n", done, keys,
                    (System.nanoTime() - start) / 1e9, writer.size());
        }
    }

    private static void stressRead(String[] argv) throws InterruptedException {
        Args args = new Args("map stress-read", argv, 2, Set.of("keys", "seconds", "min-hits"), Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map file)"));
        args.expectPositional(1);
        long keys = args.longOption("keys", 1, Long.MAX_VALUE, 1024);
        double seconds = Double.parseDouble(args.string("seconds", "2"));
        long minHits = args.longOption("min-hits", 0, Long.MAX_VALUE, 1);
        long deadline = System.nanoTime() + 30_000_000_000L;
        MapFile opened = null;
        while (opened == null) {
            try {
                opened = MapFile.openReadOnly(path);
            } catch (RuntimeException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
        try (MapFile map = opened) {
            Stress.Verifier verifier = new Stress.Verifier();
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long r = 1;
            while (System.nanoTime() - end < 0) {
                for (int i = 0; i < 1024; i++) {
                    r = Users.mix(r);
                    long key = Long.remainderUnsigned(r, keys);
                    try {
                        verifier.check(key, map.get(key));
                    } catch (IllegalStateException e) {
                        throw new IllegalStateException("stress-read: after " + verifier.reads() + " reads: " + e.getMessage());
                    }
                }
            }
            if (verifier.hits() < minHits) {
                throw new IllegalStateException("stress-read: only " + verifier.hits() + " of " + verifier.reads()
                        + " reads found a value (at least " + minHits + " expected): was the writer running?");
            }
            System.out.printf("stress-read: %d reads (%d found a value) checked in %.1f s: none torn, none older than "
                    + "one read before%n", verifier.reads(), verifier.hits(), (System.nanoTime() - start) / 1e9);
        }
    }
}
