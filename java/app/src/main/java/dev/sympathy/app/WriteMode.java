package dev.sympathy.app;

/**
 * How a producing loop writes ({@code --writes}, the results' {@code params.writes}), with the
 * names the Rust side gives them ({@code sympathy run ipc --writes}):
 * <ul>
 *   <li>{@code per-message}: one write call per message, copied from a message the loop built;
 *       the ring's batch publishes up to {@link RingImpl.ProducerEnd#BATCH} at once
 *       ({@link RingImpl.ProducerEnd#offerBatched});</li>
 *   <li>{@code batch}: runs of messages filled in place, one call per run
 *       ({@link RingImpl.ProducerEnd#writeRun}), as the Rust producer's {@code try_write_batch}.</li>
 * </ul>
 *
 * <pre>{@code
 * WriteMode.parse("bench", "batch")   // BATCH
 * WriteMode.BATCH.label()             // "batch"
 * }</pre>
 */
enum WriteMode {
    PER_MESSAGE("per-message"),
    BATCH("batch");

    private final String label;

    WriteMode(String label) {
        this.label = label;
    }

    /** The name on the command line and in results. */
    String label() {
        return label;
    }

    /** The largest {@code --batch}: a run is published as one batch, whose records the ring must hold. */
    static final int MAX_BATCH = 1 << 16;

    /** {@code --writes} of {@code args} (default per-message). */
    static WriteMode of(Args args) {
        return parse(args.command(), args.string("writes", PER_MESSAGE.label));
    }

    /**
     * {@code --batch} of {@code args} for {@code mode}: messages per run (default
     * {@link RingImpl.ProducerEnd#BATCH}); a usage error unless the mode is {@link #BATCH}.
     */
    static int batchOf(Args args, WriteMode mode) {
        if (args.flag("batch") && mode != BATCH) {
            throw new UsageException(args.command() + ": --batch sets the messages per run of --writes batch; add --writes batch");
        }
        return (int) args.longOption("batch", 1, MAX_BATCH, RingImpl.ProducerEnd.BATCH);
    }

    /** {@code name} as given to {@code command}'s {@code --writes}; a usage error names the choices. */
    static WriteMode parse(String command, String name) {
        for (WriteMode mode : values()) {
            if (mode.label.equals(name)) {
                return mode;
            }
        }
        throw new UsageException(command + ": unknown --writes '" + name + "' (choose per-message or batch)");
    }
}
