package org.tracesync.spark;

import java.io.Serializable;

/**
 * What one decoding task found: where its records began and where its walk stopped (checked
 * against the neighbouring parts, see {@code CapturePart}), pcapng header blocks met inside it,
 * and the same counts as the one-machine capture reader.
 */
public record PartReport(int file, int part, long firstRecord, long stopOffset, long lateHeaderBlocks,
                         long packets, long tcpBetweenTraced, long otherTraffic, long broadcastDatagrams,
                         long backwardTimestamps, long firstTime, long lastTime) implements Serializable {

    /**
     * {@link #stopOffset()} of a re-synchronized part whose walk met bytes it could not read (a
     * false boundary, or a damaged file: reading the file again whole tells which).
     */
    public static final long BROKEN = -1;
}
