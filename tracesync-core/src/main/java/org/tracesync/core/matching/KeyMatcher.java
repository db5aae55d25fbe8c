package org.tracesync.core.matching;

import java.util.HashMap;
import java.util.Map;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.model.NetEventSink;

/**
 * Joins send events with receive events of other traces by key (DESIGN §1, stage 2).
 *
 * <p>A key seen exactly once as a send and exactly once as a receive, on two different nodes,
 * gives one message. A key sent or received more than once (retransmissions, duplicates) is
 * ambiguous: dropped and counted, never guessed. A key whose send and receive are on the same
 * node (loopback) is discarded and counted.
 *
 * <p>Memory: one small entry per distinct key until {@link #finish}, with no window and no limit:
 * the reference that tests compare the bounded {@link TcpMatcher} with (which every trace format
 * goes through), and a matcher for small in-memory inputs.
 */
public final class KeyMatcher {

    private static final class Entry {
        int sendNode = -1;
        long sendTime;
        int sends;
        int recvNode = -1;
        long recvTime;
        int receives;
    }

    private final Map<Object, Entry> pending = new HashMap<>();
    private long matched;
    private long ambiguous;
    private long unmatched;
    private long sameNode;

    /** The sink into which node {@code node}'s source streams its events. */
    public NetEventSink sinkFor(int node) {
        return event -> add(node, event);
    }

    public void add(int node, NetEvent event) {
        Entry e = pending.computeIfAbsent(event.key(), k -> new Entry());
        if (event.direction() == Direction.SEND) {
            e.sends++;
            e.sendNode = node;
            e.sendTime = event.timestamp();
        } else {
            e.receives++;
            e.recvNode = node;
            e.recvTime = event.timestamp();
        }
    }

    /** Emits every unique match into {@code out}, then forgets all pending keys. */
    public void finish(MessageSink out) {
        for (Entry e : pending.values()) {
            if (e.sends == 0 || e.receives == 0) {
                unmatched++;
            } else if (e.sends > 1 || e.receives > 1) {
                ambiguous++;
            } else if (e.sendNode == e.recvNode) {
                sameNode++;
            } else {
                matched++;
                out.message(e.sendNode, e.recvNode, e.sendTime, e.recvTime);
            }
        }
        pending.clear();
    }

    public long matched() {
        return matched;
    }

    /** Keys dropped because they were sent or received more than once. */
    public long ambiguous() {
        return ambiguous;
    }

    /** Keys seen only as a send or only as a receive. */
    public long unmatched() {
        return unmatched;
    }

    /** Keys whose send and receive were on the same node (loopback), discarded. */
    public long sameNode() {
        return sameNode;
    }
}
