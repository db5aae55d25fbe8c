package org.tracesync.core.simulate;

import org.tracesync.core.model.NetEvent;

/**
 * Receives what a {@link ClusterSimulator} produces. Both methods are called in true-time order
 * over the whole cluster, so each node's events arrive in its own local-time order.
 */
public interface SimulationSink {

    /**
     * One traced event on {@code node} (local timestamp in {@code event}).
     *
     * @param peer the other end: the receiver of a unicast send, the sender of a receive, −1 for
     *             the send of a broadcast
     */
    default void event(int node, int peer, NetEvent event) {
    }

    /**
     * One matched message (a broadcast gives one per receiver), local times of each end; called
     * when the message is received.
     */
    default void message(int sender, int receiver, long sendTime, long recvTime) {
    }
}
