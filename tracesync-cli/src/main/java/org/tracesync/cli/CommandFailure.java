package org.tracesync.cli;

/**
 * A user-facing failure: the CLI prints {@link #getMessage()} as one line on stderr (no stack
 * trace unless {@code --debug}) and exits with {@link #exitCode()}.
 */
public final class CommandFailure extends RuntimeException {

    private final int exitCode;

    public CommandFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CommandFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
