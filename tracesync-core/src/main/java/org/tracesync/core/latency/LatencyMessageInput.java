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
import org.tracesync.core.model.NodeInfo;

/**
 * What `tracesync latency` synchronizes on (DESIGN §6b): the causal pairs of the chained events
 * (consecutive steps on two nodes, as messages), the application message events of the latency
 * inputs (matched by id, {@link KeyMatcher}), and the messages of any other traces given (their
 * own {@link MessageInput}, e.g. the formats module's matching pipeline).
 *
 * <p>Nodes: the latency inputs' nodes first (indices as in {@link LatencyEvents}), then one node per
 * other trace that does not join a latency node (a kernel trace of a probed machine, on its clock,
 * does; so do its captures and span hosts, on CLOCK_REALTIME, through an {@link EpochOffsetMapping}). Chain pairs cost O(1) each; message ids one map entry each.
 */
public final class LatencyMessageInput implements MessageInput {

    private final LatencyInstances instances;
    private final MessageInput others;
    private final int[] otherIndex;
    private final EpochOffsetMapping[] mappings;
    private final List<NodeInfo> nodes;
    private final List<String> warnings = new ArrayList<>();

    /** Only the latency inputs. */
    public LatencyMessageInput(LatencyInstances instances) {
        this(instances, null, new int[0]);
    }

    /**
     * @param others messages of the other traces (null when none), their node indices as in
     *               {@code others.nodes()}
     * @param joins  for each of {@code others.nodes()}, the latency node index it joins (its
     *               timestamps already on that node's clock), or -1 for a node of its own
     */
    public LatencyMessageInput(LatencyInstances instances, MessageInput others, int[] joins) {
        this(instances, others, joins, new EpochOffsetMapping[joins.length]);
    }

    /**
     * As {@link #LatencyMessageInput(LatencyInstances, MessageInput, int[])}, with for each other node
     * joining a latency node on CLOCK_REALTIME (a capture or the span host of a probed machine) the
     * mapping onto that node's clock ({@link EpochOffsetMapping}; null: already on it). A mapped
     * message is widened by the mapping's uncertainty (send earlier, receive later, so that it still
     * holds for the true times); one with a time the mapping leaves out is not used (counted).
     */
    public LatencyMessageInput(LatencyInstances instances, MessageInput others, int[] joins, EpochOffsetMapping[] mappings) {
        int count = others == null ? 0 : others.nodes().size();
        if (joins.length != count || mappings.length != count) {
            throw new IllegalArgumentException("one join index and one mapping per other trace");
        }
        for (int k = 0; k < count; k++) {
            if (mappings[k] != null && joins[k] < 0) {
                throw new IllegalArgumentException("a realtime mapping for a node that joins no latency node");
            }
        }
        this.mappings = mappings.clone();
        this.instances = instances;
        this.others = others;
        LatencyEvents ev = instances.events();
        List<NodeInfo> list = new ArrayList<>();
        List<String> names = ev.nodeNames();
        for (int k = 0; k < names.size(); k++) {
            list.add(new NodeInfo(names.get(k), ev.nodeSource(k)));
        }
        this.otherIndex = new int[count];
        for (int k = 0; k < count; k++) {
            NodeInfo o = others.nodes().get(k);
            if (joins[k] >= 0) {
                otherIndex[k] = joins[k];
                continue;
            }
            for (NodeInfo n : list) {
                if (n.name().equals(o.name())) {
                    throw new IllegalArgumentException("two inputs name node '" + n.name() + "' (" + n.source() + " and "
                            + o.source() + "); a trace other than probe output or latency JSON lines needs a node"
                            + " name of its own");
                }
            }
            otherIndex[k] = list.size();
            list.add(o);
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
        matcher.finish(sink);
        warnings.clear();
        if (matcher.ambiguous() > 0) {
            warnings.add(matcher.ambiguous() + " message ids sent or received more than once were dropped");
        }
        if (matcher.sameNode() > 0) {
            warnings.add(matcher.sameNode() + " messages between a node and itself were discarded");
        }
        if (others != null) {
            long[] sameNode = {0};
            long[] unmapped = {0};
            others.readMessages((s, r, ts, tr) -> {
                int a = otherIndex[s];
                int b = otherIndex[r];
                if (a == b) {
                    sameNode[0]++; // two other traces joined to one node
                    return;
                }
                long send = ts;
                long recv = tr;
                if (mappings[s] != null) {
                    send = mappings[s].toNode(ts);
                    if (send == EpochOffsetMapping.UNMAPPED) {
                        unmapped[0]++;
                        return;
                    }
                    send = Math.subtractExact(send, mappings[s].uncertainty());
                }
                if (mappings[r] != null) {
                    recv = mappings[r].toNode(tr);
                    if (recv == EpochOffsetMapping.UNMAPPED) {
                        unmapped[0]++;
                        return;
                    }
                    recv = Math.addExact(recv, mappings[r].uncertainty());
                }
                sink.message(a, b, send, recv);
            });
            warnings.addAll(others.warnings());
            if (sameNode[0] > 0) {
                warnings.add(sameNode[0] + " messages between two traces of one node were discarded");
            }
            if (unmapped[0] > 0) {
                warnings.add(unmapped[0] + " messages of realtime traces joined to a probed node were not used: their time"
                        + " lies outside the probe's epoch-offset samples (before the first, after the last, or around a"
                        + " realtime step)");
            }
        }
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
