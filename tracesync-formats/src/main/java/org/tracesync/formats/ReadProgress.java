package org.tracesync.formats;

/**
 * Implemented by sources that can say how far they have read, for progress displays: bytes of the
 * file consumed so far by the current pass. Must be cheap and safe to call from another thread.
 */
public interface ReadProgress {
    long bytesRead();
}
