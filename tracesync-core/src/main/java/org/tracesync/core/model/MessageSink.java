package org.tracesync.core.model;

/**
 * Receives matched messages (DESIGN §1, stage 2 → 3). Hot path: primitive arguments, no object
 * per message. Nodes are indices into the input's node list.
 */
@FunctionalInterface
public interface MessageSink {
    /**
     * @param sender   index of the node that sent the message
     * @param receiver index of the node that received it
     * @param sendTime send timestamp on the sender's clock (ns)
     * @param recvTime receive timestamp on the receiver's clock (ns)
     */
    void message(int sender, int receiver, long sendTime, long recvTime);
}
