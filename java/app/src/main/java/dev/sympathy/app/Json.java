package dev.sympathy.app;

import java.util.Map;

/** Just enough JSON writing for the results schema: objects of strings, numbers, booleans, objects. */
final class Json {
    private Json() {}

    static String object(Map<String, ?> fields) {
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (var entry : fields.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, entry.getKey());
            out.append(':');
            value(out, entry.getValue());
        }
        return out.append('}').toString();
    }

    private static void value(StringBuilder out, Object value) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(out, s);
            case Boolean b -> out.append(b);
            case Double d -> out.append(d.isNaN() || d.isInfinite() ? "null" : number(d));
            case Number n -> out.append(n);
            case Map<?, ?> m -> {
                @SuppressWarnings("unchecked")
                Map<String, ?> fields = (Map<String, ?>) m;
                out.append(object(fields));
            }
            default -> string(out, value.toString());
        }
    }

    /** Whole doubles print without a fraction only when they are exact integers of sane size. */
    private static String number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d) + ".0";
        }
        return Double.toString(d);
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
