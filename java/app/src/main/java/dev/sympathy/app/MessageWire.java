package dev.sympathy.app;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One way of writing the messaging experiment's price updates ({@link MessageSample}) into ring
 * records and reading them back: the Java twin of Rust's {@code sympathy_lab::messaging::Wire},
 * with the same names and ring type ids (docs/messaging.md). An instance holds its flyweights and
 * scratch: one per thread.
 *
 * <pre>{@code
 * MessageWire wire = MessageWire.create("run messaging", "sbe");
 * wire.encode(7, segment, offset, wire.fixedLength());   // in place, a fixed-length wire
 * wire.verify(7, segment, offset, length);                // throws Mismatch unless it is message 7
 * }</pre>
 */
interface MessageWire {
    /** {@link #fixedLength()} of a wire whose messages each have their own length. */
    int VARIABLE = -1;

    /** The wires by name (Rust's encodings, and java-serialization). */
    List<String> NAMES = List.of("raw", "sbe", "struct", "hand-codec", "java-serialization");

    /** A new wire called {@code name}; {@link UsageException} names the wires for another. */
    static MessageWire create(String command, String name) {
        return switch (name) {
            case "raw" -> new RawWire();
            case "sbe" -> new SbeWire();
            case "struct" -> new StructWire();
            case "hand-codec" -> new ByteBufferWire();
            case "java-serialization" -> new JavaSerializationWire();
            default -> throw new UsageException(command + ": unknown encoding '" + name + "' (choose from "
                    + String.join(", ", NAMES) + ")");
        };
    }

    /** Its name on the command line (Rust's name where Rust has it). */
    String name();

    /** The ring type id of its records. */
    int typeId();

    /** Bytes of every message, or {@link #VARIABLE}. */
    int fixedLength();

    /** Writes message {@code seq} in place at {@code offset} of {@code buffer} ({@code length} = the fixed length). */
    void encode(long seq, MemorySegment buffer, long offset, int length);

    /** A variable wire's message {@code seq}, encoded into its scratch: valid until the next call. */
    default Encoded encode(long seq) {
        throw new UnsupportedOperationException(name() + " writes its messages in place");
    }

    /** Decodes the record at {@code offset} and checks every field against message {@code seq}; {@link Mismatch} otherwise. */
    void verify(long seq, MemorySegment buffer, long offset, int length);

    /** A variable wire's encoded message: {@code bytes[0, length)}. */
    final class Encoded {
        byte[] bytes = new byte[1024];
        int length;
    }

    /** A record that did not decode to the message it had to be. */
    final class Mismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message);
        }

        Mismatch(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
