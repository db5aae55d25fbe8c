package org.tracesync.spark;

import org.apache.spark.Partitioner;

/** Partitions {@link SegmentEvent}s by their connection (both directions together). */
public final class ConnectionPartitioner extends Partitioner {

    private static final long serialVersionUID = 1L;

    private final int partitions;

    public ConnectionPartitioner(int partitions) {
        this.partitions = partitions;
    }

    @Override
    public int numPartitions() {
        return partitions;
    }

    @Override
    public int getPartition(Object key) {
        long h = ((SegmentEvent) key).connection() * 0x9E3779B97F4A7C15L;
        return (int) Long.remainderUnsigned(h ^ (h >>> 29), partitions);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionPartitioner p && p.partitions == partitions;
    }

    @Override
    public int hashCode() {
        return partitions;
    }
}
