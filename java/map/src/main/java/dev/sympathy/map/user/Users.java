package dev.sympathy.map.user;

/**
 * The generator of the seed's users, identical to the Rust {@code sympathy_map::user::generate}
 * (a test pins the same values in both), so a file written by one language is checked field by
 * field by the other.
 *
 * <pre>{@code
 * User u = Users.generate(7, 100);   // "user7", 0 to 8 friends among ids 0..99
 * }</pre>
 */
public final class Users {
    private Users() {}

    /** The countries {@link #generate} draws from. */
    public static final String[] COUNTRIES = {"DE", "US", "GB", "FR", "JP", "IN", "BR", "CN", "IT", "ES", "CA", "AU",
            "NL", "SE", "PL", "MX"};

    /** The earliest registration time: 2011-03-13. */
    public static final long FIRST_REGISTRATION_MS = 1_300_000_000_000L;

    /** splitmix64's finalizer: the generator's source of every "random" choice (the Rust {@code mix}). */
    public static long mix(long x) {
        long z = x + 0x9e37_79b9_7f4a_7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d0_49bb_1331_11ebL;
        return z ^ (z >>> 31);
    }

    /**
     * User {@code id} of a population of {@code population} users: name {@code user<id>},
     * e-mail {@code user<id>@example.com}, a country of {@link #COUNTRIES}, 95% active, 4%
     * suspended, 1% closed, registered over ten years, last seen within a year of it, 0 to 8
     * friends (4 on average) drawn from the population (none when it is empty).
     */
    public static User generate(long id, long population) {
        long r = mix(id);
        long registered = FIRST_REGISTRATION_MS + Long.remainderUnsigned(r, 315_360_000_000L);
        long percent = Long.remainderUnsigned(r, 100);
        Status status = percent < 95 ? Status.ACTIVE : percent < 99 ? Status.SUSPENDED : Status.CLOSED;
        long[] friends = new long[friendCount(id, population)];
        for (int k = 0; k < friends.length; k++) {
            friends[k] = friend(id, population, k);
        }
        return new User(id, "user" + Long.toUnsignedString(id), "user" + Long.toUnsignedString(id) + "@example.com",
                COUNTRIES[(int) ((r >>> 8) & 15)], status, registered,
                registered + Long.remainderUnsigned(mix(r), 31_536_000_000L), friends);
    }

    /** How many friends user {@code id} has (the Rust {@code friends_of(id, population).len()}). */
    public static int friendCount(long id, long population) {
        return population == 0 ? 0 : (int) ((mix(id) >>> 16) % 9);
    }

    /** Friend {@code k} of user {@code id}, without building the user (for checksums). */
    public static long friend(long id, long population, int k) {
        return Long.remainderUnsigned(mix(mix(id) + k + 1), population);
    }

    /** Bytes the flyweight encoding of user {@code id} takes, without building it. */
    public static int flyweightLength(long id, long population) {
        int digits = Long.toUnsignedString(id).length();
        return FlyweightCodec.FIXED_LENGTH + 8 * friendCount(id, population) + (4 + digits) + (4 + digits + 12);
    }

    /**
     * The size of a map for users 0..users in the flyweight layout: slots at load at most 1/2, a
     * data area with room for their exact records plus a quarter (the Rust {@code map_config}).
     *
     * @throws dev.sympathy.map.BadConfigException for more users than one map holds, said before
     *     the sizing walks their records
     */
    public static dev.sympathy.map.MapConfig mapConfig(long users) {
        dev.sympathy.map.MapConfig.forEntries(users, 0); // the count alone first: the walk is a step per user
        long bytes = 0;
        for (long id = 0; id < users; id++) {
            bytes += dev.sympathy.map.MapDescriptor.recordLength(flyweightLength(id, users));
        }
        long mean = users == 0 ? 0 : bytes / users;
        return dev.sympathy.map.MapConfig.forEntries(users, Math.max(0, mean - 16) + 8)
                .withValueFormat(dev.sympathy.map.MapDescriptor.VALUE_FORMAT_USER_FLYWEIGHT);
    }
}
