package dev.sympathy.map.user;

/** An account's status, with its code in the flyweight layout and its JSON name. */
public enum Status {
    /** In use. */
    ACTIVE(0, "active"),
    /** Blocked for a while. */
    SUSPENDED(1, "suspended"),
    /** Closed by its owner. */
    CLOSED(2, "closed");

    private final int code;
    private final String jsonName;

    Status(int code, String jsonName) {
        this.code = code;
        this.jsonName = jsonName;
    }

    /** Its code in the flyweight layout. */
    public int code() {
        return code;
    }

    /** Its name in JSON. */
    public String jsonName() {
        return jsonName;
    }

    /** The status of a code, or null. */
    public static Status ofCode(int code) {
        return switch (code) {
            case 0 -> ACTIVE;
            case 1 -> SUSPENDED;
            case 2 -> CLOSED;
            default -> null;
        };
    }
}
