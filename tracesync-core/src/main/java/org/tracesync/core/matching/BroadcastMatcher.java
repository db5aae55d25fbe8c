package org.tracesync.core.matching;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Groups one broadcast/multicast datagram's receptions across traces (DESIGN §1, "broadcasts").
 * Same input contract and window rule as {@link TcpMatcher}: events merged in local-time order; a
 * datagram key lives W after its first event, then is decided. A group is emitted when at least
 * two distinct nodes received it, each exactly once; a node that saw the datagram twice makes it
 * ambiguous (dropped, counted). The 192-bit key is the caller's digest of the datagram (addresses,
 * ports, IP identification, length, payload hash).
 *
 * <p>Broadcast traffic is sparse next to TCP, so this class favours simplicity: one small object
 * per live datagram. Memory is bounded by the datagrams within one window.
 */
public final class BroadcastMatcher {

    private record Key(long a, long b, long c) {
    }

    private static final class Group {
        final Key key;
        final long first;
        int sender = -1;
        long sendTime;
        int sends;
        int[] nodes = new int[4];
        long[] times = new long[4];
        int size;
        boolean ambiguous;

        Group(Key key, long first) {
            this.key = key;
            this.first = first;
        }
    }

    private final BroadcastSink out;
    private final long window;
    private final Map<Key, Group> live = new HashMap<>();
    private final ArrayDeque<Group> order = new ArrayDeque<>();
    private long now = Long.MIN_VALUE;
    private long groups;
    private long ambiguous;
    private long single;

    public BroadcastMatcher(long windowNs, BroadcastSink out) {
        this.window = windowNs;
        this.out = out;
    }

    public void datagram(int node, boolean send, long time, long a, long b, long c) {
        if (time > now) {
            now = time;
            while (!order.isEmpty() && order.peekFirst().first < now - window) {
                decide(order.pollFirst());
            }
        }
        Key k = new Key(a, b, c);
        Group g = live.get(k);
        if (g == null) {
            g = new Group(k, time);
            live.put(k, g);
            order.addLast(g);
        }
        if (send) {
            g.sends++;
            g.sender = node;
            g.sendTime = time;
            return;
        }
        for (int i = 0; i < g.size; i++) {
            if (g.nodes[i] == node) {
                g.ambiguous = true;
                return;
            }
        }
        if (g.size == g.nodes.length) {
            g.nodes = Arrays.copyOf(g.nodes, g.size * 2);
            g.times = Arrays.copyOf(g.times, g.size * 2);
        }
        g.nodes[g.size] = node;
        g.times[g.size++] = time;
    }

    private void decide(Group g) {
        live.remove(g.key);
        if (g.ambiguous || g.sends > 1) {
            ambiguous++;
        } else if (g.size < 2) {
            single++;
        } else {
            groups++;
            out.broadcast(g.sends == 1 ? g.sender : -1, g.sendTime, Arrays.copyOf(g.nodes, g.size),
                    Arrays.copyOf(g.times, g.size));
        }
    }

    public void finish() {
        while (!order.isEmpty()) {
            decide(order.pollFirst());
        }
    }

    public long groups() {
        return groups;
    }

    public long ambiguous() {
        return ambiguous;
    }

    /** Datagrams received by fewer than two traced nodes. */
    public long single() {
        return single;
    }
}
