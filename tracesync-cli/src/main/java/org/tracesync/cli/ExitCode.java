package org.tracesync.cli;

/** The CLI's documented exit codes (docs/USER_GUIDE.md, "Exit codes"). */
public final class ExitCode {
    /** Everything asked for was done. */
    public static final int OK = 0;
    /** Synchronization impossible or partial: some nodes could not be synchronized. */
    public static final int SYNC_INCOMPLETE = 1;
    /** Bad command line: unknown option, missing or malformed argument. */
    public static final int USAGE = 2;
    /** An input cannot be read: missing file, unknown format, corrupt trace. */
    public static final int INPUT = 3;
    /** A bug in tracesync (an unexpected exception): rerun with --debug and report it. */
    public static final int INTERNAL = 4;

    private ExitCode() {
    }
}
