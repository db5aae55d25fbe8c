package org.tracesync.cli;

/** The CLI's documented exit codes (docs/USER_GUIDE.md, "Exit codes"). */
public final class ExitCode {
    /** Everything asked for was done. */
    public static final int OK = 0;
    /**
     * Not every node has an estimate that no message contradicts: a node could not be synchronized
     * (absent, invalid, or one-way where nothing placed it), one is synchronized only by a fallback line that messages
     * contradict, the nodes form separate groups, or there is a single node. For {@code eval}:
     * inversions found, or the truth not contained in the bounds.
     */
    public static final int SYNC_INCOMPLETE = 1;
    /** Bad command line: unknown option, missing or malformed argument. */
    public static final int USAGE = 2;
    /** An input cannot be read: missing file, unknown format, corrupt trace. */
    public static final int INPUT = 3;
    /** A bug in tracesync (an unexpected exception): rerun with --debug and report it. */
    public static final int INTERNAL = 4;
    /** The Java heap was exhausted: rerun with a larger one (TRACESYNC_JAVA_OPTS=-Xmx…). */
    public static final int OUT_OF_MEMORY = 5;

    private ExitCode() {
    }
}
