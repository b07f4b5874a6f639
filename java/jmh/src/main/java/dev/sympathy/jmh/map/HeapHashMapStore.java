package dev.sympathy.jmh.map;

import dev.sympathy.map.user.User;
import java.util.HashMap;

/** {@code heap-hashmap}: the seed's {@code HashMap<Long, User>}, one object graph per user. */
final class HeapHashMapStore implements UserStore {
    private HashMap<Long, User> map = new HashMap<>();

    @Override
    public int friendCount(long key) {
        User user = map.get(key);
        if (user == null) {
            return -1;
        }
        UserStore.checkFound(key, user.id());
        return user.friends().length;
    }

    @Override
    public int friends(long key, long[] out) {
        User user = map.get(key);
        if (user == null) {
            return -1;
        }
        long[] friends = user.friends();
        System.arraycopy(friends, 0, out, 0, friends.length);
        return friends.length;
    }

    @Override
    public void put(User user) {
        map.put(user.id(), user);
    }

    @Override
    public long nativeBytes() {
        return 0;
    }

    @Override
    public long usedNativeBytes() {
        return 0;
    }

    @Override
    public double reopenMs() {
        return -1;
    }

    @Override
    public void close() {
        map = null;
    }
}
