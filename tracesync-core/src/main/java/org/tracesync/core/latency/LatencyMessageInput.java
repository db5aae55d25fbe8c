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
 * other trace that does not join a latency node (a kernel trace of a probed machine, on its clock,
 * does). Chain pairs cost O(1) each; matching is {@link KeyMatcher}'s (one entry per key).
 */
public final class LatencyMessageInput implements MessageInput {

    private final LatencyInstances instances;
    private final List<NetEventSource> others;
    private final int[] otherIndex;
    private final List<NodeInfo> nodes;
    private final List<String> warnings = new ArrayList<>();

    /** Every other trace a node of its own. */
    public LatencyMessageInput(LatencyInstances instances, List<NetEventSource> others) {
        this(instances, others, minusOnes(others.size()));
    }

    /**
     * @param joins for each other trace, the latency node index it joins (its timestamps already on
     *              that node's clock), or -1 for a node of its own
     */
    public LatencyMessageInput(LatencyInstances instances, List<NetEventSource> others, int[] joins) {
        if (joins.length != others.size()) {
            throw new IllegalArgumentException("one join index per other trace");
        }
        this.instances = instances;
        this.others = List.copyOf(others);
        LatencyEvents ev = instances.events();
        List<NodeInfo> list = new ArrayList<>();
        List<String> names = ev.nodeNames();
        for (int k = 0; k < names.size(); k++) {
            list.add(new NodeInfo(names.get(k), ev.nodeSource(k)));
        }
        this.otherIndex = new int[others.size()];
        for (int k = 0; k < others.size(); k++) {
            NetEventSource s = others.get(k);
            if (joins[k] >= 0) {
                otherIndex[k] = joins[k];
                continue;
            }
            for (NodeInfo n : list) {
                if (n.name().equals(s.node().name())) {
                    throw new IllegalArgumentException("two inputs name node '" + n.name() + "' (" + n.source() + " and "
                            + s.node().source() + "); a trace other than probe output or latency JSON lines needs a node"
                            + " name of its own");
                }
            }
            otherIndex[k] = list.size();
            list.add(s.node());
        }
        this.nodes = List.copyOf(list);
    }

    private static int[] minusOnes(int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, -1);
        return a;
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
        for (int k = 0; k < others.size(); k++) {
            others.get(k).stream(matcher.sinkFor(otherIndex[k]));
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
