package dev.sympathy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON reader and writer of the results schema and of JMH's result file. */
class JsonTest {
    @Test
    void shouldWriteNumbersAsTheRustSideDoes() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("int", 3);
        m.put("long", 2147483648L);
        m.put("whole", 10.0);
        m.put("fraction", 12.5);
        m.put("nan", Double.NaN);
        m.put("inf", Double.POSITIVE_INFINITY);
        m.put("float", 1.5f);
        assertEquals("{\"int\":3,\"long\":2147483648,\"whole\":10.0,\"fraction\":12.5,\"nan\":null,\"inf\":null,"
                + "\"float\":1.5}", Json.write(m));
    }

    @Test
    void shouldWriteNestedObjectsListsAndLiteralsInOrder() {
        final Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("b", true);
        inner.put("n", null);
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("z", inner);
        m.put("a", Arrays.asList(1, "x", null));
        assertEquals("{\"z\":{\"b\":true,\"n\":null},\"a\":[1,\"x\",null]}", Json.write(m));
    }

    @Test
    void shouldEscapeQuotesBackslashesAndControlCharacters() {
        assertEquals("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001\"", Json.write("a\"b\\c\nd\re\tf\u0001"));
    }

    @Test
    void shouldReadWhatItWrites() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a\"b\\c\n\u0001");
        m.put("l", 7L);
        m.put("d", 2.5);
        m.put("list", List.of(true, false));
        assertEquals(m, Json.parse(Json.write(m)));
    }

    @Test
    void shouldReadNumbersAsLongWhenIntegralAndDoubleOtherwise() {
        assertEquals(List.of(1L, 2.5, 1.0e3, -4L), Json.parse(" [1, 2.5, 1e3, -4] "));
        assertEquals("NaN", Json.parse("\"NaN\""));
    }

    @Test
    void shouldRejectMalformedJsonWithItsOffset() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Json.parse("{\"a\": }"));
        assertEquals("invalid JSON at offset 6: unexpected character '}'", e.getMessage());
        assertEquals("invalid JSON at offset 2: trailing characters after the JSON value",
                assertThrows(IllegalArgumentException.class, () -> Json.parse("1 x")).getMessage());
        assertEquals("invalid JSON at offset 4: unterminated string",
                assertThrows(IllegalArgumentException.class, () -> Json.parse("\"abc")).getMessage());
    }
}
