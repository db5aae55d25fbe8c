package org.tracesync.formats;

/**
 * The traces given do not form a set that can be synchronized, whatever they hold: the same trace
 * twice, or two traces of one node name. A usage error (exit 2): the message names the paths.
 */
public final class TraceSetException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public TraceSetException(String message) {
        super(message);
    }
}
