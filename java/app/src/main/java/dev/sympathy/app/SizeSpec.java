package dev.sympathy.app;

import java.util.SplittableRandom;

/**
 * Message sizes for {@code produce}: a fixed size {@code S}, or {@code MIN..MAX} drawn
 * uniformly from a seeded generator (the consumer needs no size: the pattern is per length).
 */
final class SizeSpec {
    final int min;
    final int max;
    private final SplittableRandom random;

    private SizeSpec(int min, int max, long seed) {
        this.min = min;
        this.max = max;
        this.random = new SplittableRandom(seed);
    }

    static SizeSpec parse(String command, String raw, long seed) {
        String[] parts = raw.split("\\.\\.", -1);
        if (parts.length > 2) {
            throw new UsageException(command + ": --size expects S or MIN..MAX, got '" + raw + "'");
        }
        long min = Args.parseLong(command, "size", parts[0]);
        long max = parts.length == 2 ? Args.parseLong(command, "size", parts[1]) : min;
        if (min < TestPattern.MIN_SIZE || max < min || max > Integer.MAX_VALUE) {
            throw new UsageException(command + ": --size " + raw + " is invalid: test messages have at least "
                    + TestPattern.MIN_SIZE + " bytes (and MIN <= MAX)");
        }
        return new SizeSpec((int) min, (int) max, seed);
    }

    /** Fails with a clear message when the largest size does not fit the ring. */
    void checkFits(String command, int maxMessageLength) {
        if (max > maxMessageLength) {
            throw new UsageException(command + ": --size " + max + " exceeds this ring's largest message of "
                    + maxMessageLength + " bytes (capacity / 8); use a larger --capacity");
        }
    }

    int next() {
        return min == max ? min : random.nextInt(min, max + 1);
    }

    @Override
    public String toString() {
        return min == max ? Integer.toString(min) : min + ".." + max;
    }
}
