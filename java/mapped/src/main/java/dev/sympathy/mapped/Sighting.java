package dev.sympathy.mapped;

/**
 * One look at the header words of a role of a mapped file (the ring's producer or consumer, the
 * map's writer), loaded in the order the kind's protocol requires; {@link Liveness#classify}
 * tells from it what became of the process that holds the role. The Rust
 * {@code sympathy_mapped::liveness::Sighting}.
 *
 * <pre>{@code
 * Sighting s = new Sighting(pid, heartbeatMs, detachedMs);
 * Liveness state = Liveness.classify(s, Progress.NONE, System.currentTimeMillis(), 5_000, Processes::alive);
 * }</pre>
 *
 * @param pid the holder's pid (0: none attached through the header)
 * @param heartbeatMs its heartbeat, ms since the epoch (0: never)
 * @param detachedMs the heartbeat of its last clean detach (0: never)
 */
public record Sighting(int pid, long heartbeatMs, long detachedMs) {
    /** A role nobody ever held: every word 0. */
    public static final Sighting NONE = new Sighting(0, 0, 0);
}
