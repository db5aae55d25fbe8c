package org.tracesync.spark;

import java.io.Serializable;

/**
 * What one task found in its part: where its records began and where its walk stopped (checked
 * against the neighbouring parts, see {@code CapturePart}), pcapng header blocks met inside it, the
 * first, last and largest timestamps, and the same counts as the one-machine capture reader (the
 * boundary pass fills only the packets and times).
 */
public record PartReport(int file, int part, long firstRecord, long stopOffset, long lateHeaderBlocks,
                         long packets, long tcpBetweenTraced, long otherTraffic, long broadcastDatagrams,
                         long backwardTimestamps, long firstTime, long lastTime, long maxTime) implements Serializable {

    /**
     * {@link #stopOffset()} of a re-synchronized part whose walk met bytes it could not read (a
     * false boundary, or a damaged file: reading the file again whole tells which).
     */
    public static final long BROKEN = -1;
}
