package dev.sympathy.mapped;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;

/**
 * The messages of the errors every kind of mapped file shares, in the kind's words: the same
 * sentences as the Rust {@code sympathy_mapped::FileError}. Each says what was wrong and what to
 * do.
 */
public final class FileMessages {
    private FileMessages() {
    }

    /** Kind {@link FileKind#notThisKind()}: the file does not start with the kind's magic. */
    public static String notThisKind(FileKind file, String path, long found) {
        return path + ": not a sympathy " + file.noun() + " file (magic " + String.format("0x%016x", found)
                + ", expected \"" + file.magicText() + "\"); check the path, or create the " + file.noun()
                + " with `" + file.createCommand() + "`";
    }

    /** Kind {@code unsupported-version}. */
    public static String unsupportedVersion(FileKind file, String path, int found) {
        return path + ": " + file.noun() + " layout version " + Integer.toUnsignedString(found)
                + " is not supported (this build reads " + file.versionsText()
                + "); use a matching sympathy build or " + file.remake();
    }

    /** Kind {@code file-length}: shorter than the header page (its creator never sized it). */
    public static String shorterThanHeader(FileKind file, String path, long actual) {
        return path + ": the file is " + actual + " bytes, shorter than the " + MappedHeader.HEADER_LENGTH
                + "-byte header page (its creator never sized it, or it is not a " + file.noun() + " file); "
                + file.remake();
    }

    /** Kind {@code file-length}: not the length its header's {@code sizes} imply. */
    public static String wrongLength(FileKind file, String path, long actual, long expected, String sizes) {
        return path + ": the file is " + actual + " bytes but a " + file.noun() + " of " + sizes + " must be exactly "
                + expected + " bytes (the file was cut or extended); " + file.remake();
    }

    /**
     * Kind {@code file-length}: shorter than its header's {@code sizes} imply, in a layout whose
     * file may be longer (a file that grows: its writer extends it before it stores the larger size).
     */
    public static String shorterThanSizes(FileKind file, String path, long actual, long expected, String sizes) {
        return path + ": the file is " + actual + " bytes but a " + file.noun() + " of " + sizes + " must be at least "
                + expected + " bytes (the file was cut); " + file.remake();
    }

    /** Kind {@code corrupt-header}. */
    public static String corruptHeader(FileKind file, String path, String what) {
        return path + ": corrupt header: " + what + "; " + file.remake();
    }

    /** Kind {@code timeout}: the creator never set {@code ready}. */
    public static String notReady(FileKind file, Duration waited) {
        return "timed out after " + waited.toMillis() + "ms waiting for the " + file.noun()
                + "'s creator to set the ready word (an all-zero header means its creator died or is still writing; "
                + file.remake() + ")";
    }

    /** Kind {@code permission-denied}. */
    public static String permissionDenied(FileKind file, String path, String operation) {
        return path + ": permission denied while trying to " + operation + "; " + file.accessNeeded()
                + ": check the file's owner and mode";
    }

    /** Kind {@code not-a-regular-file}; {@code what} as {@link RegularFiles} describes it. */
    public static String notARegularFile(FileKind file, String path, String what) {
        return path + ": not a regular file (" + what + "); a " + file.noun() + " is a regular file made by `"
                + file.createCommand() + "`: check the path";
    }

    /** Kind {@code no-space}. */
    public static String noSpace(FileKind file, String path, NoSpaceError space, long needed) {
        return path + ": not enough space for the " + file.noun() + " file: it needs " + needed + " bytes and "
                + space.filesystem() + " has " + space.available() + " bytes free, of which " + space.kept()
                + " stay free for other programs; create the " + file.noun()
                + " on a filesystem with room for it (`df` lists them; a container's /dev/shm grows with"
                + " `docker run --shm-size`) or " + file.makeSmaller();
    }

    /** Kind {@code io}: the operation and its cause, as the system names it (as Rust's errors do). */
    public static String io(String path, String operation, Throwable cause) {
        return path + ": could not " + operation + ": " + cause(cause);
    }

    /**
     * What went wrong, in the system's words: the JDK's file exceptions carry only the path as
     * their message (a {@code NoSuchFileException}'s is the file's name), so their kind is named.
     */
    static String cause(Throwable cause) {
        if (cause instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (cause instanceof FileAlreadyExistsException) {
            return "File exists";
        }
        if (cause instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (cause instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
