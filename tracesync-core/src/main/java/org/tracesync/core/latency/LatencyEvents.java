package org.tracesync.core.latency;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latency events of every node (DESIGN §6b), as a reader found them: chained steps, simple
 * start/stop events and application message events, each with its node's local timestamp (int64
 * ns). Columnar (primitive arrays, no object per event); node and event names are interned to
 * indices in first-seen order. Memory: about 33 bytes per event; the analysis needs all of them
 * (the steps of one instance may lie anywhere in the inputs).
 */
public final class LatencyEvents {

    /** Kinds of a record. */
    public static final byte STEP = 0;
    public static final byte START = 1;
    public static final byte STOP = 2;
    public static final byte SEND = 3;
    public static final byte RECEIVE = 4;

    private final List<String> nodeNames = new ArrayList<>();
    private final List<String> nodeSources = new ArrayList<>();
    private final Map<String, Integer> nodeIndex = new HashMap<>();
    private final List<String> eventNames = new ArrayList<>();
    private final Map<String, Integer> eventIndex = new HashMap<>();
    private final List<String> messageIds = new ArrayList<>();
    private final Map<String, Integer> messageIndex = new HashMap<>();
    private byte[] kind = new byte[1024];
    private int[] node = new int[1024];
    private int[] event = new int[1024];
    private long[] seq = new long[1024];
    private int[] step = new int[1024];
    private long[] time = new long[1024];
    private int size;

    /** The index of node {@code name} (created on first use, {@code source} says where it was read). */
    public int node(String name, String source) {
        Integer k = nodeIndex.get(name);
        if (k != null) {
            if (!nodeSources.get(k).contains(source)) {
                nodeSources.set(k, nodeSources.get(k) + ", " + source);
            }
            return k;
        }
        nodeIndex.put(name, nodeNames.size());
        nodeNames.add(name);
        nodeSources.add(source);
        return nodeNames.size() - 1;
    }

    /** The index of event name {@code name} (created on first use). */
    public int event(String name) {
        Integer k = eventIndex.get(name);
        if (k != null) {
            return k;
        }
        eventIndex.put(name, eventNames.size());
        eventNames.add(name);
        return eventNames.size() - 1;
    }

    public void step(int node, int event, long seq, int step, long t) {
        add(STEP, node, event, seq, step, t);
    }

    public void start(int node, int event, long seq, long t) {
        add(START, node, event, seq, 0, t);
    }

    public void stop(int node, int event, long seq, long t) {
        add(STOP, node, event, seq, 0, t);
    }

    /** An application message event ({@code send} or receive) with its message id. */
    public void message(int node, boolean send, String messageId, long t) {
        Integer k = messageIndex.get(messageId);
        if (k == null) {
            k = messageIds.size();
            messageIndex.put(messageId, k);
            messageIds.add(messageId);
        }
        add(send ? SEND : RECEIVE, node, k, 0, 0, t);
    }

    private void add(byte k, int n, int e, long s, int st, long t) {
        if (size == kind.length) {
            int cap = size * 2;
            kind = Arrays.copyOf(kind, cap);
            node = Arrays.copyOf(node, cap);
            event = Arrays.copyOf(event, cap);
            seq = Arrays.copyOf(seq, cap);
            step = Arrays.copyOf(step, cap);
            time = Arrays.copyOf(time, cap);
        }
        kind[size] = k;
        node[size] = n;
        event[size] = e;
        seq[size] = s;
        step[size] = st;
        time[size] = t;
        size++;
    }

    public int size() {
        return size;
    }

    public byte kind(int i) {
        return kind[i];
    }

    public int node(int i) {
        return node[i];
    }

    /** Event name index (steps, starts, stops) or message id index (sends, receives). */
    public int event(int i) {
        return event[i];
    }

    public long seq(int i) {
        return seq[i];
    }

    public int step(int i) {
        return step[i];
    }

    public long time(int i) {
        return time[i];
    }

    public List<String> nodeNames() {
        return List.copyOf(nodeNames);
    }

    public String nodeSource(int node) {
        return nodeSources.get(node);
    }

    public String eventName(int event) {
        return eventNames.get(event);
    }

    public String messageId(int index) {
        return messageIds.get(index);
    }

    public int eventCount() {
        return eventNames.size();
    }
}
