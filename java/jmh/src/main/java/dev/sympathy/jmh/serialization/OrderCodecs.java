package dev.sympathy.jmh.serialization;

import java.util.List;

/**
 * The Java variants of the serialization experiment, by results-schema name.
 *
 * <pre>{@code
 * OrderCodec codec = OrderCodecs.create("byte-buffer");
 * }</pre>
 */
public final class OrderCodecs {
    /** Every variant, in report order. */
    public static final List<String> VARIANTS = List.of("java-serialization", "byte-buffer", "unsafe", "ffm", "ring-claim", "sbe");

    private OrderCodecs() {
    }

    /** @throws IllegalArgumentException for an unknown variant */
    public static OrderCodec create(String variant) {
        return switch (variant) {
            case "java-serialization" -> new JavaSerializationCodec();
            case "byte-buffer" -> new ByteBufferCodec();
            case "unsafe" -> new UnsafeCodec();
            case "ffm" -> new FfmCodec();
            case "ring-claim" -> RingClaimCodec.create();
            case "sbe" -> new SbeCodec();
            default -> throw new IllegalArgumentException("serialization: unknown variant '" + variant
                    + "' (expected " + String.join(", ", VARIANTS) + ")");
        };
    }
}
