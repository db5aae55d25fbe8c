package org.tracesync.core.model;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Several message inputs read as one: their nodes one after the other (the second's node 0 is
 * {@code first.nodes().size()}, ...), their messages in turn with node indices moved accordingly,
 * their warnings together. For inputs that cannot share one matching pipeline (event traces and span
 * files). O(1) per message.
 */
public final class ConcatenatedMessageInput implements MessageInput {

    private final List<MessageInput> parts;
    private final List<NodeInfo> nodes;

    public ConcatenatedMessageInput(List<MessageInput> parts) {
        this.parts = List.copyOf(parts);
        List<NodeInfo> all = new ArrayList<>();
        for (MessageInput p : this.parts) {
            all.addAll(p.nodes());
        }
        this.nodes = List.copyOf(all);
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        int base = 0;
        for (MessageInput p : parts) {
            int b = base;
            p.readMessages((s, r, ts, tr) -> sink.message(s + b, r + b, ts, tr));
            base += p.nodes().size();
        }
    }

    @Override
    public List<String> warnings() {
        List<String> all = new ArrayList<>();
        for (MessageInput p : parts) {
            all.addAll(p.warnings());
        }
        return all;
    }
}
