package org.tracesync.core.latency;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.KeyMatcher;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.core.model.NodeInfo;

/**
 * What `tracesync latency` synchronizes on (DESIGN §6b): the causal pairs of the chained events
 * (consecutive steps on two nodes, as messages), the application message events of the latency
 * inputs, and the network events of any other traces given, matched by key ({@link KeyMatcher}).
 *
 * <p>Nodes: the latency inputs' nodes first (indices as in {@link LatencyEvents}), then one node per
 * other trace. Chain pairs cost O(1) each; matching is {@link KeyMatcher}'s (one entry per key).
 */
public final class LatencyMessageInput implements MessageInput {

    private final LatencyInstances instances;
    private final List<NetEventSource> others;
    private final List<NodeInfo> nodes;
    private final List<String> warnings = new ArrayList<>();

    public LatencyMessageInput(LatencyInstances instances, List<NetEventSource> others) {
        this.instances = instances;
        this.others = List.copyOf(others);
        LatencyEvents ev = instances.events();
        List<NodeInfo> list = new ArrayList<>();
        List<String> names = ev.nodeNames();
        for (int k = 0; k < names.size(); k++) {
            list.add(new NodeInfo(names.get(k), ev.nodeSource(k)));
        }
        for (NetEventSource s : others) {
            for (NodeInfo n : list) {
                if (n.name().equals(s.node().name())) {
                    throw new IllegalArgumentException("two inputs name node '" + n.name() + "' (" + n.source() + " and "
                            + s.node().source() + "); a trace other than probe output or latency JSON lines needs a node"
                            + " name of its own");
                }
            }
            list.add(s.node());
        }
        this.nodes = List.copyOf(list);
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        long[] p = new long[4];
        for (int k = 0; k < instances.causalPairs(); k++) {
            instances.causalPair(k, p);
            sink.message((int) p[0], (int) p[1], p[2], p[3]);
        }
        KeyMatcher matcher = new KeyMatcher();
        LatencyEvents ev = instances.events();
        for (int i = 0; i < ev.size(); i++) {
            byte kind = ev.kind(i);
            if (kind == LatencyEvents.SEND || kind == LatencyEvents.RECEIVE) {
                matcher.add(ev.node(i), new NetEvent(kind == LatencyEvents.SEND ? Direction.SEND : Direction.RECEIVE,
                        ev.time(i), new MessageIdKey(ev.messageId(ev.event(i)))));
            }
        }
        int base = ev.nodeNames().size();
        for (int k = 0; k < others.size(); k++) {
            others.get(k).stream(matcher.sinkFor(base + k));
        }
        matcher.finish(sink);
        warnings.clear();
        for (NetEventSource s : others) {
            for (String w : s.warnings()) {
                warnings.add(s.node().name() + ": " + w);
            }
        }
        if (matcher.ambiguous() > 0) {
            warnings.add(matcher.ambiguous() + " message keys sent or received more than once were dropped");
        }
        if (matcher.sameNode() > 0) {
            warnings.add(matcher.sameNode() + " messages between a node and itself were discarded");
        }
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
