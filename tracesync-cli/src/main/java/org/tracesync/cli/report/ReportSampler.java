package org.tracesync.cli.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.MessageEnds;

/**
 * Reads the messages of a synchronized trace set once and keeps what the report plots, in memory
 * independent of the number of messages: per pair, samples of the message points in rebased
 * coordinates (u = x − X0 on the abscissa node's clock, v = y − x); per node, samples of the
 * corrected one-way latencies (positive for messages it sent, negated for messages it received);
 * per pair, the number of inversions after correction. O(1) per message.
 */
public final class ReportSampler implements MessageSink, org.tracesync.core.matching.BroadcastSink {

    static final int POINTS = 2500;
    static final int BINS = 400;

    /** Samples and counts of one unordered pair. */
    static final class Pair {
        final int a;
        final int b;
        final long origin;
        final PointSample aToB;
        final PointSample bToA;
        long inversions;

        Pair(int a, int b, long origin, long from, long to) {
            this.a = a;
            this.b = b;
            this.origin = origin;
            this.aToB = new PointSample(POINTS, from, to, BINS, 31L * a + b);
            this.bToA = new PointSample(POINTS, from, to, BINS, 37L * a + b);
        }
    }

    /** Corrected latency samples of one node. */
    static final class Node {
        final PointSample sent;
        final PointSample received;
        final PointSample broadcast;

        Node(long from, long to, int index) {
            sent = new PointSample(POINTS, from, to, BINS, 41L * index);
            received = new PointSample(POINTS, from, to, BINS, 43L * index);
            broadcast = new PointSample(POINTS, 0, 0, 0, 47L * index);
        }
    }

    private final SyncResult result;
    private final List<NodeInfo> nodes;
    private final NodeResult[] nodeResults;
    private final Map<Long, Pair> pairs = new HashMap<>();
    private final Node[] latencies;
    private long messages;
    private long inversions;

    /** {@code nodes}: the input's node list (message indices refer to it). */
    public ReportSampler(SyncResult result, List<NodeInfo> nodes) {
        this.result = result;
        this.nodes = List.copyOf(nodes);
        this.nodeResults = new NodeResult[nodes.size()];
        this.latencies = new Node[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            String name = nodes.get(i).name();
            for (NodeResult r : result.nodes()) {
                if (r.name().equals(name)) {
                    nodeResults[i] = r;
                }
            }
            NodeResult r = nodeResults[i];
            latencies[i] = r == null ? null : new Node(r.start(), r.end(), i);
        }
    }

    @Override
    public void message(int sender, int receiver, long sendTime, long recvTime) {
        messages++;
        // a first guess of X0 (when the result has no pair estimate): this message's time on the lower-index node
        Pair p = pair(sender, receiver, sender < receiver ? sendTime : recvTime);
        if (p == null) {
            return;
        }
        if (sender == p.a) {
            p.aToB.add(sendTime, recvTime - sendTime);
        } else {
            // x on a = receive time; v = y − x with y the send time on b; keep the largest v: add −v
            p.bToA.add(recvTime, -(double) (sendTime - recvTime));
        }
        NodeResult s = nodeResults[sender];
        NodeResult r = nodeResults[receiver];
        if (s != null && r != null && s.reference().equals(r.reference())) {
            // an end around a clock step takes the reading its other end allows, as in eval
            double latency = MessageEnds.latency(s.transform(), sendTime, r.transform(), recvTime);
            if (latency < 0) {
                p.inversions++;
                inversions++;
            }
            latencies[sender].sent.add(sendTime, latency);
            latencies[receiver].received.add(recvTime, latency);
        }
    }

    /**
     * A broadcast group: for every receiver synchronized onto a reference that received the same
     * datagram, its differential delay = its corrected arrival time − the reference's arrival time.
     */
    @Override
    public void broadcast(int sender, long sendTime, int[] receivers, long[] recvTimes) {
        for (int k = 0; k < receivers.length; k++) {
            NodeResult ref = nodeResults[receivers[k]];
            if (ref == null || !ref.reference().equals(ref.name())) {
                continue;
            }
            // receivers[k] is a reference that received the datagram
            for (int i = 0; i < receivers.length; i++) {
                NodeResult r = nodeResults[receivers[i]];
                if (i == k || r == null || !r.reference().equals(ref.name())) {
                    continue;
                }
                double delay = (recvTimes[i] - recvTimes[k]) + r.transform().correction(recvTimes[i]);
                latencies[receivers[i]].broadcast.add(recvTimes[i], delay);
            }
        }
    }

    private Pair pair(int i, int j, long firstX) {
        if (i == j || i < 0 || j < 0 || i >= nodes.size() || j >= nodes.size()) {
            return null;
        }
        long key = (long) Math.min(i, j) << 32 | Math.max(i, j);
        Pair p = pairs.get(key);
        if (p == null) {
            int a = Math.min(i, j);
            int b = Math.max(i, j);
            long origin = firstX;
            PairResult pr = pairResult(nodes.get(a).name(), nodes.get(b).name());
            if (pr != null && pr.b().equals(nodes.get(a).name())) {
                int t = a;
                a = b;
                b = t;
            }
            if (pr != null && pr.origin() != 0) {
                origin = pr.origin(); // the estimate's origin, on a's clock
            }
            NodeResult ra = nodeResults[a];
            long from = ra == null ? 0 : ra.start();
            long to = ra == null ? 0 : ra.end();
            p = new Pair(a, b, origin, from, to);
            pairs.put(key, p);
        }
        return p;
    }

    PairResult pairResult(String a, String b) {
        for (PairResult pr : result.pairs()) {
            if ((pr.a().equals(a) && pr.b().equals(b)) || (pr.a().equals(b) && pr.b().equals(a))) {
                return pr;
            }
        }
        return null;
    }

    List<Pair> pairs() {
        List<Pair> out = new ArrayList<>(pairs.values());
        out.sort((x, y) -> x.a != y.a ? Integer.compare(x.a, y.a) : Integer.compare(x.b, y.b));
        return out;
    }

    /** Index of the input node named {@code name}, or −1. */
    int indexOf(String name) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    Node latencies(int node) {
        return latencies[node];
    }

    List<NodeInfo> nodes() {
        return nodes;
    }

    NodeResult nodeResult(int node) {
        return nodeResults[node];
    }

    public long messages() {
        return messages;
    }

    /** Messages received before they were sent after correction (same reference group only). */
    public long inversions() {
        return inversions;
    }
}
