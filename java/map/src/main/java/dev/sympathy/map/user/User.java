package dev.sympathy.map.user;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One user of the seed's retail web application: "a simple user class holding some attributes
 * and a list of 'friends' making up a social graph" (the Rust {@code sympathy_map::user::User}).
 * Serializable, for the JDK-serialization baseline.
 *
 * @param id the user's id, also the map's key
 * @param name display name (UTF-8, at most 255 bytes)
 * @param email e-mail address (UTF-8, at most 255 bytes)
 * @param country ISO 3166 alpha-2 code: two ASCII capital letters
 * @param status account status
 * @param registeredMs registration time, ms since the Unix epoch
 * @param lastLoginMs last login time, ms since the Unix epoch
 * @param friends ids of the user's friends (at most 65535)
 */
public record User(long id, String name, String email, String country, Status status, long registeredMs,
        long lastLoginMs, long[] friends) implements Serializable {

    @Override
    public boolean equals(Object o) {
        return o instanceof User u && id == u.id && name.equals(u.name) && email.equals(u.email)
                && country.equals(u.country) && status == u.status && registeredMs == u.registeredMs
                && lastLoginMs == u.lastLoginMs && Arrays.equals(friends, u.friends);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id) * 31 + Arrays.hashCode(friends);
    }

    @Override
    public String toString() {
        return "User[id=" + id + ", name=" + name + ", email=" + email + ", country=" + country + ", status=" + status
                + ", registeredMs=" + registeredMs + ", lastLoginMs=" + lastLoginMs + ", friends="
                + Arrays.toString(friends) + "]";
    }
}
