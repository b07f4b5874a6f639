package dev.sympathy.mapped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Refusing anything but a regular file before opening it: opening a FIFO for reading waits for
 * a writer, and a device such as {@code /dev/zero} would pass for a file of endless zeros (the
 * Rust {@code sympathy_mapped::file::not_a_regular_file}).
 */
public final class RegularFiles {
    private RegularFiles() {}

    /**
     * What {@code path} is when it is not a regular file (symbolic links followed), naming the
     * link it was reached by: {@code "a character device, through a symbolic link to /dev/zero"};
     * null for a regular file.
     *
     * @throws IOException if the path does not exist or cannot be looked at
     */
    public static String problem(Path path) throws IOException {
        String what;
        try {
            int mode = (int) Files.getAttribute(path, "unix:mode");
            what = switch (mode & 0170000) {
                case 0100000 -> null;
                case 0040000 -> "a directory";
                case 0010000 -> "a FIFO (named pipe)";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "not a file";
            };
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            // No "unix" attribute view on this platform: the basic attributes tell less.
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            what = attributes.isRegularFile() ? null
                    : attributes.isDirectory() ? "a directory" : "a device, FIFO or socket";
        }
        if (what != null && Files.isSymbolicLink(path)) {
            what += ", through a symbolic link to " + Files.readSymbolicLink(path);
        }
        return what;
    }
}
