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
    /** Per node: the index of its part when that part looked for exchanges, else -1 (set by reading). */
    private final int[] lookedFor;

    public ConcatenatedMessageInput(List<MessageInput> parts) {
        this.parts = List.copyOf(parts);
        List<NodeInfo> all = new ArrayList<>();
        for (MessageInput p : this.parts) {
            all.addAll(p.nodes());
        }
        this.nodes = List.copyOf(all);
        this.lookedFor = new int[all.size()];
        java.util.Arrays.fill(lookedFor, -1);
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

    /**
     * Messages and exchanges of every part, node indices moved; true when some part looks for
     * exchanges ({@link #exchangesLookedFor} then says which pairs: both nodes in such a part).
     */
    @Override
    public boolean readMessages(MessageSink messages, ExchangeSink exchanges) throws IOException {
        int base = 0;
        boolean any = false;
        for (int k = 0; k < parts.size(); k++) {
            MessageInput p = parts.get(k);
            int b = base;
            boolean known = p.readMessages((s, r, ts, tr) -> messages.message(s + b, r + b, ts, tr),
                    (x, y, t1, t2, t3, t4) -> exchanges.exchange(x + b, y + b, t1, t2, t3, t4));
            for (int n = 0; n < p.nodes().size(); n++) {
                lookedFor[b + n] = known ? k : -1;
            }
            any |= known;
            base += p.nodes().size();
        }
        return any;
    }

    @Override
    public boolean exchangesLookedFor(int a, int b) {
        if (lookedFor[a] < 0 || lookedFor[a] != lookedFor[b]) {
            return false;
        }
        int base = 0;
        for (int k = 0; k < lookedFor[a]; k++) {
            base += parts.get(k).nodes().size();
        }
        return parts.get(lookedFor[a]).exchangesLookedFor(a - base, b - base);
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
