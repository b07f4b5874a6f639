package dev.sympathy.map.user;

/**
 * A user as JSON, as the lookup service returns it: byte for byte the text of the Rust
 * {@code sympathy_map::user::json::write_user} (a test pins the same text in both).
 *
 * <pre>
 * {"id":1,"name":"user1","email":"user1@example.com","country":"NL","status":"active",
 *  "registered_ms":1532160822465,"last_login_ms":1542570246623,
 *  "friends":[790915,381227,39575,94435,471666,80818,254924,91801]}
 * </pre>
 * (one line). Strings escape the quote, the backslash and the control characters below U+0020
 * (as a backslash, {@code u} and four hex digits); everything else is written as it is.
 */
public final class UserJson {
    private UserJson() {}

    /**
     * Appends the JSON of the user {@code view} to {@code out}.
     *
     * @throws UserCodecException when a text field is not UTF-8 or the country or status is invalid
     */
    public static void write(UserView view, StringBuilder out) {
        String country = view.country();
        Status status = view.status();
        out.append("{\"id\":").append(Long.toUnsignedString(view.id())).append(",\"name\":");
        writeString(view.name(), out);
        out.append(",\"email\":");
        writeString(view.email(), out);
        out.append(",\"country\":\"").append(country).append("\",\"status\":\"").append(status.jsonName())
                .append("\",\"registered_ms\":").append(view.registeredMs()).append(",\"last_login_ms\":")
                .append(view.lastLoginMs()).append(",\"friends\":[");
        for (int k = 0; k < view.friendCount(); k++) {
            if (k > 0) {
                out.append(',');
            }
            out.append(Long.toUnsignedString(view.friend(k)));
        }
        out.append("]}");
    }

    /** Appends {@code text} as a JSON string. */
    public static void writeString(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append('\\').append('u').append(String.format("%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
