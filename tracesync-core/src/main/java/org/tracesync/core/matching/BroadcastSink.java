package org.tracesync.core.matching;

/** Receives broadcast groups: one datagram and every traced node that received it. */
@FunctionalInterface
public interface BroadcastSink {
    /**
     * @param sender     node that sent it, or -1 when the sender was not traced
     * @param sendTime   send time on the sender's clock (ns), meaningless when sender is -1
     * @param receivers  receiving nodes (at least two, distinct)
     * @param recvTimes  receive times, each on its receiver's clock (ns)
     */
    void broadcast(int sender, long sendTime, int[] receivers, long[] recvTimes);
}
