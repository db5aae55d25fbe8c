package org.tracesync.core.repair;

import java.util.List;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.simulate.SimulationConfig;

/** A simulated cluster's messages, as the repair tests edit them, given back as a MessageInput. */
final class ListedMessages {

    private ListedMessages() {
    }

    /** {@code messages} ({sender, receiver, send time, receive time}) of the nodes {@code config} names. */
    static MessageInput input(SimulationConfig config, List<long[]> messages) {
        return new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return config.names().stream().map(n -> new NodeInfo(n, "sim")).toList();
            }

            @Override
            public void readMessages(MessageSink sink) {
                for (long[] m : messages) {
                    sink.message((int) m[0], (int) m[1], m[2], m[3]);
                }
            }
        };
    }
}
