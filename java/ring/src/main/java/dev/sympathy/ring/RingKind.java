package dev.sympathy.ring;

/**
 * The three kinds of ring file, fixed when the file is created (docs/ring-layout.md, the
 * {@code kind} word): each kind has its own peers, and opening a file as another kind is a
 * {@link WrongKindException}.
 *
 * <pre>{@code
 * try (RingFile ring = RingFile.create(path, 1 << 16, RingKind.MANY_TO_ONE)) {
 *     assert ring.kind() == RingKind.MANY_TO_ONE && ring.kind().cliName().equals("mpsc");
 * }
 * }</pre>
 */
public enum RingKind {
    /**
     * One producer, one consumer ({@link RingProducer}, {@link RingConsumer}): Agrona's
     * {@code OneToOneRingBuffer}. Created as layout version 1 (old builds read it).
     */
    ONE_TO_ONE("spsc", RingDescriptor.KIND_ONE_TO_ONE, "one-to-one (spsc)"),
    /**
     * Any number of producers, one consumer ({@link ManyToOneProducer},
     * {@link ManyToOneConsumer}): Agrona's {@code ManyToOneRingBuffer}. Layout version 2.
     */
    MANY_TO_ONE("mpsc", RingDescriptor.KIND_MANY_TO_ONE, "many-to-one (mpsc)"),
    /**
     * One transmitter, any number of receivers that may be lapped ({@link BroadcastTransmitter},
     * {@link BroadcastReceiver}): Agrona's broadcast buffer. Layout version 2.
     */
    BROADCAST("broadcast", RingDescriptor.KIND_BROADCAST, "broadcast");

    private final String cliName;
    private final int code;
    private final String description;

    RingKind(String cliName, int code, String description) {
        this.cliName = cliName;
        this.code = code;
        this.description = description;
    }

    /** The short name of the command line ({@code --kind spsc|mpsc|broadcast}) and of {@code inspect}. */
    public String cliName() {
        return cliName;
    }

    /** The value of the header's {@code kind} word (version 2 files): 1, 2 or 3. */
    public int code() {
        return code;
    }

    /** How messages spell the kind: {@code one-to-one (spsc)}, {@code many-to-one (mpsc)}, {@code broadcast}. */
    public String description() {
        return description;
    }

    /** The layout version a file of this kind is created with: 1 for one-to-one, 2 for the others. */
    public int layoutVersion() {
        return this == ONE_TO_ONE ? RingDescriptor.LAYOUT_VERSION : RingDescriptor.KIND_LAYOUT_VERSION;
    }

    /** Bytes of the trailer after the record area: 768 for the rings, 128 for broadcast. */
    public int trailerLength() {
        return this == BROADCAST ? RingDescriptor.BROADCAST_TRAILER_LENGTH : RingDescriptor.TRAILER_LENGTH;
    }

    /** Total file length for a record area of {@code capacity} bytes: 4096 + capacity + the trailer. */
    public long fileLength(long capacity) {
        return RingDescriptor.HEADER_LENGTH + capacity + trailerLength();
    }

    /** The kind of a header's {@code kind} word, or null for a value that names none. */
    public static RingKind ofCode(int code) {
        for (RingKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        return null;
    }

    /**
     * The kind a command line names ({@code spsc}, {@code mpsc}, {@code broadcast}).
     *
     * @throws IllegalArgumentException naming the accepted names, for any other text
     */
    public static RingKind ofCliName(String name) {
        for (RingKind kind : values()) {
            if (kind.cliName.equals(name)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown ring kind '" + name + "': use spsc, mpsc or broadcast");
    }
}
