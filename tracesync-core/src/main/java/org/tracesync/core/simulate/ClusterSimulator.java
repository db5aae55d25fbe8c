package org.tracesync.core.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.model.NodeInfo;

/**
 * Simulates traffic between nodes with their own clocks (DESIGN: tests and the demo need traces
 * whose truth is known). Pure math, no I/O; seeded and reproducible: equal configurations produce
 * identical events.
 *
 * <p>Model: on every link and direction, data messages leave as a Poisson process of
 * {@code rate}/s; each takes {@code minimum + tail} ns (the link's {@link LatencyModel}) in true
 * time. With acks, the receiver answers every data message after a processing delay. With
 * broadcasts, every node also sends datagrams to all its neighbours at once (one send event, one
 * receive event per neighbour, the same key). Events are stamped with each node's
 * {@link ClockModel#local local clock}.
 *
 * <p>Output is streamed in true-time order across the cluster (hence in local order per node);
 * memory holds only the messages in flight plus one pending send per link direction: O(links +
 * rate·latency), independent of the duration. Cost: O(log q) per event for the event queue.
 */
public final class ClusterSimulator {

    private static final int NEXT_DATA = 0;
    private static final int NEXT_BROADCAST = 1;
    private static final int RECEIVE = 2;
    private static final int ACK_SEND = 3;

    /** A scheduled happening, ordered by true time then creation order (deterministic ties). */
    private static final class Pending implements Comparable<Pending> {
        final long time;
        final long sequence;
        final int kind;
        int link = -1;
        boolean forward;
        int sender;
        int receiver;
        long sendTrue;
        Object key;
        boolean isAck;

        Pending(long time, long sequence, int kind) {
            this.time = time;
            this.sequence = sequence;
            this.kind = kind;
        }

        @Override
        public int compareTo(Pending o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }

    /** Counts of what a run produced. */
    public record Summary(long dataMessages, long acks, long broadcasts, long messages, long[] eventsPerNode) {
    }

    private final SimulationConfig config;

    public ClusterSimulator(SimulationConfig config) {
        this.config = config;
    }

    /**
     * The simulated cluster as matched messages, for the synchronization pipeline: nodes named as
     * the configuration names them (host "sim"); every read runs the simulation again (seeded, so
     * every read gives the same messages).
     */
    public static MessageInput input(SimulationConfig config) {
        return new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return config.names().stream().map(n -> new NodeInfo(n, "sim")).toList();
            }

            @Override
            public void readMessages(MessageSink sink) {
                new ClusterSimulator(config).run(sink);
            }
        };
    }

    public SimulationConfig config() {
        return config;
    }

    /** The true clocks, in node order. */
    public List<ClockModel> clocks() {
        return config.clocks();
    }

    /** The address the simulated node {@code node} uses in TCP keys ("10.0.x.y"). */
    public static String address(int node) {
        int host = node + 1;
        return "10.0." + (host >> 8) + "." + (host & 0xff);
    }

    private static byte[] addressBytes(int node) {
        int host = node + 1;
        return new byte[] {10, 0, (byte) (host >> 8), (byte) host};
    }

    /** Streams matched messages (local times) into {@code sink}. */
    public Summary run(MessageSink sink) {
        return run(new SimulationSink() {
            @Override
            public void message(int sender, int receiver, long sendTime, long recvTime) {
                sink.message(sender, receiver, sendTime, recvTime);
            }
        });
    }

    /** Runs the simulation once, streaming into {@code sink}. */
    public Summary run(SimulationSink sink) {
        List<ClockModel> clocks = config.clocks();
        List<Link> links = config.links();
        int n = clocks.size();
        Random random = new Random(config.seed());
        // payload sizes draw from their own stream: message ids and TCP keys give the same traffic
        Random payloads = new Random(config.seed() ^ 0x9E3779B97F4A7C15L);
        PriorityQueue<Pending> queue = new PriorityQueue<>();
        long[] sequence = {0};
        long end = config.start() + config.duration();
        long[] seqNumbers = new long[links.size() * 2];
        long[] eventsPerNode = new long[n];
        long dataMessages = 0;
        long acks = 0;
        long broadcasts = 0;
        long messages = 0;
        long ids = 0;

        List<List<int[]>> neighbours = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            neighbours.add(new ArrayList<>());
        }
        for (int l = 0; l < links.size(); l++) {
            neighbours.get(links.get(l).a()).add(new int[] {l, 1});
            neighbours.get(links.get(l).b()).add(new int[] {l, 0});
        }

        if (config.rate() > 0) {
            for (int l = 0; l < links.size(); l++) {
                for (int dir = 0; dir < 2; dir++) {
                    Pending p = new Pending(config.start() + interval(random, config.rate()), sequence[0]++, NEXT_DATA);
                    p.link = l;
                    p.forward = dir == 0;
                    queue.add(p);
                }
            }
        }
        if (config.broadcastRate() > 0) {
            for (int node = 0; node < n; node++) {
                if (!neighbours.get(node).isEmpty()) {
                    Pending p = new Pending(config.start() + interval(random, config.broadcastRate()),
                            sequence[0]++, NEXT_BROADCAST);
                    p.sender = node;
                    queue.add(p);
                }
            }
        }

        while (!queue.isEmpty()) {
            Pending p = queue.poll();
            switch (p.kind) {
                case NEXT_DATA -> {
                    if (p.time >= end) {
                        continue;
                    }
                    Link link = links.get(p.link);
                    int s = p.forward ? link.a() : link.b();
                    int r = p.forward ? link.b() : link.a();
                    Object key = dataKey(payloads, p.link, p.forward, seqNumbers, ++ids);
                    send(sink, clocks, eventsPerNode, s, r, p.time, key);
                    queue.add(inFlight(random, sequence, link, p.link, p.forward, s, r, p.time, key, false));
                    dataMessages++;
                    Pending next = new Pending(p.time + interval(random, config.rate()), sequence[0]++, NEXT_DATA);
                    next.link = p.link;
                    next.forward = p.forward;
                    queue.add(next);
                }
                case NEXT_BROADCAST -> {
                    if (p.time >= end) {
                        continue;
                    }
                    Object key = new MessageIdKey("b" + (++ids));
                    send(sink, clocks, eventsPerNode, p.sender, -1, p.time, key);
                    for (int[] nb : neighbours.get(p.sender)) {
                        Link link = links.get(nb[0]);
                        boolean forward = nb[1] == 1;
                        int r = forward ? link.b() : link.a();
                        queue.add(inFlight(random, sequence, link, nb[0], forward, p.sender, r, p.time, key, false));
                    }
                    broadcasts++;
                    Pending next = new Pending(p.time + interval(random, config.broadcastRate()),
                            sequence[0]++, NEXT_BROADCAST);
                    next.sender = p.sender;
                    queue.add(next);
                }
                case RECEIVE -> {
                    long recvLocal = clocks.get(p.receiver).local(p.time);
                    eventsPerNode[p.receiver]++;
                    sink.event(p.receiver, p.sender, new NetEvent(Direction.RECEIVE, recvLocal, p.key));
                    sink.message(p.sender, p.receiver, clocks.get(p.sender).local(p.sendTrue), recvLocal);
                    messages++;
                    if (config.acks() && !p.isAck && p.link >= 0 && !(p.key instanceof MessageIdKey k && k.id().startsWith("b"))) {
                        long delay = config.ackDelay() / 2
                                + Math.round(-(config.ackDelay() / 2.0) * Math.log(1.0 - random.nextDouble()));
                        Pending ack = new Pending(p.time + delay, sequence[0]++, ACK_SEND);
                        ack.link = p.link;
                        ack.forward = !p.forward;
                        ack.sender = p.receiver;
                        ack.receiver = p.sender;
                        ack.key = ackKey(p.key, p.link, !p.forward, seqNumbers);
                        queue.add(ack);
                    }
                }
                case ACK_SEND -> {
                    send(sink, clocks, eventsPerNode, p.sender, p.receiver, p.time, p.key);
                    queue.add(inFlight(random, sequence, links.get(p.link), p.link, p.forward, p.sender,
                            p.receiver, p.time, p.key, true));
                    acks++;
                }
                default -> throw new IllegalStateException();
            }
        }
        return new Summary(dataMessages, acks, broadcasts, messages, eventsPerNode);
    }

    private static void send(SimulationSink sink, List<ClockModel> clocks, long[] eventsPerNode, int s, int r,
                             long trueTime, Object key) {
        eventsPerNode[s]++;
        sink.event(s, r, new NetEvent(Direction.SEND, clocks.get(s).local(trueTime), key));
    }

    private static Pending inFlight(Random random, long[] sequence, Link link, int linkIndex, boolean forward,
                                    int s, int r, long sendTrue, Object key, boolean isAck) {
        long latency = link.latency().sample(random, forward);
        Pending recv = new Pending(sendTrue + latency, sequence[0]++, RECEIVE);
        recv.link = linkIndex;
        recv.forward = forward;
        recv.sender = s;
        recv.receiver = r;
        recv.sendTrue = sendTrue;
        recv.key = key;
        recv.isAck = isAck;
        return recv;
    }

    private Object dataKey(Random random, int link, boolean forward, long[] seqNumbers, long id) {
        if (config.keys() == KeyKind.MESSAGE_ID) {
            return new MessageIdKey("m" + id);
        }
        Link l = config.links().get(link);
        int s = forward ? l.a() : l.b();
        int r = forward ? l.b() : l.a();
        int slot = link * 2 + (forward ? 0 : 1);
        int length = 64 + random.nextInt(1337);
        long seq = seqNumbers[slot];
        seqNumbers[slot] = (seq + length) & 0xffffffffL;
        long ack = seqNumbers[slot ^ 1];
        return new TcpSegmentKey(addressBytes(s), addressBytes(r), port(link, forward, true),
                port(link, forward, false), seq, ack, 0x18, length);
    }

    private Object ackKey(Object dataKey, int link, boolean forward, long[] seqNumbers) {
        if (dataKey instanceof TcpSegmentKey d) {
            long seq = seqNumbers[link * 2 + (forward ? 0 : 1)];
            return new TcpSegmentKey(d.destination(), d.source(), d.destinationPort(), d.sourcePort(), seq,
                    (d.seq() + d.payloadLength()) & 0xffffffffL, 0x10, 0);
        }
        return new MessageIdKey("ack-" + ((MessageIdKey) dataKey).id());
    }

    /** Client port on the link's first node, server port on the second. */
    private static int port(int link, boolean forward, boolean sourceSide) {
        boolean firstNode = forward == sourceSide;
        return firstNode ? 40000 + link : 5000;
    }

    private static long interval(Random random, double perSecond) {
        return 1 + Math.round(-Math.log(1.0 - random.nextDouble()) * 1e9 / perSecond);
    }
}
