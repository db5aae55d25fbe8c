package org.tracesync.formats;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A trace or result file that cannot be read as what it claims to be. The message always names
 * the file, the position (line, or byte offset) and what was expected; the CLI prints it as one
 * line and exits with the input-error code.
 */
public class TraceFormatException extends IOException {

    private final Path file;

    public TraceFormatException(Path file, String position, String message) {
        super(file + (position == null || position.isEmpty() ? "" : ":" + position) + ": " + message);
        this.file = file;
    }

    public TraceFormatException(Path file, String position, String message, Throwable cause) {
        this(file, position, message);
        initCause(cause);
    }

    /** "line N" position. */
    public static TraceFormatException atLine(Path file, long line, String message) {
        return new TraceFormatException(file, "line " + line, message);
    }

    /** "offset N" position (bytes from the start of the file). */
    public static TraceFormatException atOffset(Path file, long offset, String message) {
        return new TraceFormatException(file, "offset " + offset, message);
    }

    public Path file() {
        return file;
    }

    private static final java.util.regex.Pattern JSON_SOURCE = java.util.regex.Pattern.compile(
            "\\[Source: [^;\\]]*(?:\\([^)]*\\))?[^;\\]]*; line: (\\d+), column: (\\d+)\\]");

    /**
     * A JSON parser's message in the user's words: its "[Source: … line: L, column: C]" location
     * becomes "line L, column C" (the file is named by the caller).
     */
    public static String plainJson(String message) {
        return message == null ? "" : JSON_SOURCE.matcher(message).replaceAll("line $1, column $2");
    }
}
