package dev.sympathy.messages;

import java.nio.file.Path;
import java.util.List;

/** The golden values (the Rust tests' crates/messages/tests/common have the same) and the schema folder. */
final class GoldenValues {
    private GoldenValues() {}

    /** {@code schema/} of the checkout (the surefire property set by the pom). */
    static Path schemaDir() {
        return Path.of(System.getProperty("sympathy.messages.dir", "../../schema"));
    }

    static Order order() {
        return Order.seed();
    }

    /** Three levels, a full 8-character symbol, a negative quantity, a venue with a non-ASCII character. */
    static PriceUpdate priceUpdate() {
        return new PriceUpdate(123_456_789_012L, new Instrument(-42, "SYMPATHY"), 1234.5625, -17, Side.ASK,
                List.of(new Level(1234.5, 100, 3), new Level(1234.25, 250, 7), new Level(1234.0, 1000, 12)),
                "Börse");
    }
}
