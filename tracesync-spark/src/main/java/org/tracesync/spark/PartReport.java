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
}
