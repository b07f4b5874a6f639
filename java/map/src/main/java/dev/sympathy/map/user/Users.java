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
        int friendCount = population == 0 ? 0 : (int) ((r >>> 16) % 9);
        long[] friends = new long[friendCount];
        for (int k = 0; k < friendCount; k++) {
            friends[k] = Long.remainderUnsigned(mix(r + k + 1), population);
        }
        return new User(id, "user" + Long.toUnsignedString(id), "user" + Long.toUnsignedString(id) + "@example.com",
                COUNTRIES[(int) ((r >>> 8) & 15)], status, registered,
                registered + Long.remainderUnsigned(mix(r), 31_536_000_000L), friends);
    }
}
