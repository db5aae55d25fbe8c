package org.tracesync.core.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Everything a simulation needs; equal configurations give identical output.
 *
 * @param seed          seed of the random traffic and latencies
 * @param clocks        one clock per node (node names are the clocks' names)
 * @param links         who talks to whom, with latencies
 * @param start         true time of the first possible send (ns, epoch-sized)
 * @param duration      sends happen in [start, start + duration) (ns); in-flight messages still arrive
 * @param rate          data messages per second per link and direction (Poisson)
 * @param acks          every data message is answered by an acknowledgement after {@code ackDelay}
 * @param ackDelay      mean processing time before an acknowledgement (ns): a fixed half plus an
 *                      exponential half
 * @param broadcastRate broadcasts per second per node (to all its neighbours at once; 0 = none)
 * @param keys          message ids or TCP-like segments
 */
public record SimulationConfig(long seed, List<ClockModel> clocks, List<Link> links, long start,
                               long duration, double rate, boolean acks, long ackDelay,
                               double broadcastRate, KeyKind keys) {

    /** Default true start time: 2023-11-14T22:13:20Z, epoch-sized as real traces are. */
    public static final long DEFAULT_START = 1_700_000_000_000_000_000L;

    public SimulationConfig {
        clocks = List.copyOf(clocks);
        links = List.copyOf(links);
        if (clocks.isEmpty()) {
            throw new IllegalArgumentException("a simulation needs at least one node");
        }
        for (Link l : links) {
            if (l.a() >= clocks.size() || l.b() >= clocks.size()) {
                throw new IllegalArgumentException("link " + l.a() + "-" + l.b() + " names a node beyond "
                        + (clocks.size() - 1));
            }
        }
        if (duration <= 0 || !(rate >= 0) || !(broadcastRate >= 0) || ackDelay < 0) {
            throw new IllegalArgumentException("duration must be > 0; rates and ack delay >= 0");
        }
        for (ClockModel c : clocks) {
            if (!c.increasingOver(start, start + duration + 10_000_000_000L)) {
                throw new IllegalArgumentException("clock " + c.name() + " runs backwards during the simulation");
            }
        }
    }

    public int nodeCount() {
        return clocks.size();
    }

    public List<String> names() {
        return clocks.stream().map(ClockModel::name).toList();
    }

    /**
     * Random clocks drawn from {@code seed}: offsets uniform in ±{@code maxOffset} ns, drifts in
     * ±{@code maxDrift}, quadratic terms in ±{@code maxDelta}; the first node keeps a perfect
     * clock, so the truth is easy to read. {@code t0} is the drift origin.
     */
    public static List<ClockModel> randomClocks(List<String> names, long t0, long seed, long maxOffset,
                                                double maxDrift, double maxDelta) {
        Random r = new Random(seed ^ 0x5DEECE66DL);
        List<ClockModel> clocks = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (i == 0) {
                clocks.add(ClockModel.perfect(names.get(0), t0));
                continue;
            }
            long alpha = Math.round((2 * r.nextDouble() - 1) * maxOffset);
            double beta = (2 * r.nextDouble() - 1) * maxDrift;
            double delta = (2 * r.nextDouble() - 1) * maxDelta;
            clocks.add(new ClockModel(names.get(i), t0, alpha, beta, delta));
        }
        return clocks;
    }

    /** Names "prefix1" … "prefixN" (e.g. h1, h2, h3), or "0" … "N−1" when prefix is null. */
    public static List<String> names(int n, String prefix) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(prefix == null ? Integer.toString(i) : prefix + (i + 1));
        }
        return names;
    }

    /**
     * A typical small cluster: random clocks (offsets up to ±1 s, drifts up to ±50 ppm, no
     * quadratic term), 60 µs / 80 µs minimum latency each way with a 100 µs mean exponential tail,
     * 10 s of traffic at {@code rate} messages/s per direction, no acks, no broadcasts.
     */
    public static SimulationConfig cluster(List<String> names, Topology topology, long seed, double rate) {
        LatencyModel latency = new LatencyModel(60_000, 80_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        return new SimulationConfig(seed,
                randomClocks(names, DEFAULT_START, seed, 1_000_000_000L, 50e-6, 0.0),
                topology.links(names.size(), latency), DEFAULT_START, 10_000_000_000L, rate,
                false, 0, 0.0, KeyKind.MESSAGE_ID);
    }

    public SimulationConfig withClocks(List<ClockModel> newClocks) {
        return new SimulationConfig(seed, newClocks, links, start, duration, rate, acks, ackDelay, broadcastRate, keys);
    }

    public SimulationConfig withTraffic(long newDuration, double newRate) {
        return new SimulationConfig(seed, clocks, links, start, newDuration, newRate, acks, ackDelay, broadcastRate, keys);
    }

    public SimulationConfig withAcks(long newAckDelay) {
        return new SimulationConfig(seed, clocks, links, start, duration, rate, true, newAckDelay, broadcastRate, keys);
    }

    public SimulationConfig withBroadcasts(double newBroadcastRate) {
        return new SimulationConfig(seed, clocks, links, start, duration, rate, acks, ackDelay, newBroadcastRate, keys);
    }

    public SimulationConfig withKeys(KeyKind newKeys) {
        return new SimulationConfig(seed, clocks, links, start, duration, rate, acks, ackDelay, broadcastRate, newKeys);
    }

    public SimulationConfig withLinks(List<Link> newLinks) {
        return new SimulationConfig(seed, clocks, newLinks, start, duration, rate, acks, ackDelay, broadcastRate, keys);
    }
}
