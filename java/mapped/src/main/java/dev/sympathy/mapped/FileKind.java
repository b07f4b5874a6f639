package dev.sympathy.mapped;

import java.nio.charset.StandardCharsets;

/**
 * One kind of mapped file (the ring, the map): its magic and layout versions, and the words its
 * file errors use, so that every kind refuses a hostile file with the same sentences. The Rust
 * twin is {@code sympathy_mapped::FileKind}; {@link FileMessages} builds the messages from it.
 *
 * <pre>{@code
 * FileKind ring = new FileKind("ring", 0x474E_4952_504D_5953L, 1, 1, "sympathy ring create",
 *         "recreate the ring", "the ring needs read and write access for both peers",
 *         "with a smaller capacity");
 * assert ring.magicText().equals("SYMPRING");
 * assert ring.reads(1) && !ring.reads(2);
 * assert ring.versionsText().equals("version 1");
 * }</pre>
 *
 * @param noun what the file is called in messages: {@code ring}, {@code map}
 * @param magic the u64 at offset 0 (8 ASCII bytes, little-endian)
 * @param oldestLayoutVersion the oldest layout version this build reads (and writes as it is)
 * @param layoutVersion the layout version this build creates, the newest it reads
 * @param createCommand the command that makes such a file
 * @param remake what to do with a damaged file
 * @param accessNeeded who needs which access, for a permission error
 * @param makeSmaller how to make the file smaller, for a full filesystem
 */
public record FileKind(String noun, long magic, int oldestLayoutVersion, int layoutVersion, String createCommand,
        String remake, String accessNeeded, String makeSmaller) {

    /** Whether this build reads files of layout {@code version}. */
    public boolean reads(int version) {
        return version >= oldestLayoutVersion && version <= layoutVersion;
    }

    /** The versions this build reads, for messages: {@code version 1}, {@code versions 1 to 2}. */
    public String versionsText() {
        return oldestLayoutVersion == layoutVersion ? "version " + layoutVersion
                : "versions " + oldestLayoutVersion + " to " + layoutVersion;
    }

    /** The magic as its 8 ASCII bytes. */
    public String magicText() {
        byte[] bytes = new byte[8];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (magic >>> (8 * i));
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The error kind of a file that is not of this kind: {@code not-a-ring-file}. */
    public String notThisKind() {
        return "not-a-" + noun + "-file";
    }
}
