package dev.sympathy.jmh.map;

/**
 * A map of users as offheap-map's timed loops read it (the Rust {@code UserStore}): the number
 * of friends of a user, its id checked, and its friends' ids, with no allocation where the map
 * allows. Each variant of the experiment is one implementation.
 */
interface UserStore extends AutoCloseable {
    /**
     * The number of friends of {@code key}'s user, or -1 when it is absent.
     *
     * @throws IllegalStateException when the user found is not {@code key}'s
     */
    int friendCount(long key);

    /**
     * Copies the ids of {@code key}'s friends into {@code out} (at least 16 long); returns how
     * many, or -1 when the user is absent.
     */
    int friends(long key, long[] out);

    /** Puts a user (the build; timed). */
    void put(dev.sympathy.map.user.User user);

    /** Bytes mapped outside the heap (0 for a heap map). */
    long nativeBytes();

    /** Bytes the map uses outside the heap (its file's header, slots and records), or 0. */
    long usedNativeBytes();

    /** Closes and opens the map again, then reads user 0: the ms it took, or -1 (a heap map). */
    double reopenMs();

    @Override
    void close();

    /**
     * The check of every lookup: the user found under {@code key} has id {@code foundId}.
     *
     * @throws IllegalStateException when it does not
     */
    static void checkFound(long key, long foundId) {
        if (foundId != key) {
            throw new IllegalStateException("a lookup of user " + key + " found user " + foundId);
        }
    }
}
