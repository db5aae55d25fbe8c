package org.tracesync.spark;

/**
 * A bad capture met by a task: carries the reader's one-line message (file and offset) back to
 * the driver, which reports it as the one-machine command does. Serializable by construction
 * (a message only), unlike {@code TraceFormatException}, which holds a {@code java.nio.file.Path}.
 */
public final class CaptureInputError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CaptureInputError(String message) {
        super(message, null, false, false);
    }
}
