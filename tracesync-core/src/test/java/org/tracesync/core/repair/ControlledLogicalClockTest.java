package org.tracesync.core.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;

/**
 * The controlled logical clock on traces with injected impossible messages: a linear 3-node
 * cluster is synchronized, then messages that arrive up to 2 ms before they leave are added to
 * the input. After repair no message is inverted (checked independently, from the repaired times
 * the result carries), every repaired time stays at or after the fitted one, and the largest
 * relative change of a local interval is reported.
 */
class ControlledLogicalClockTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void messagesTheFitLeavesInvertedAreRepaired(long seed) throws Exception {
        SimulationConfig config = SimulationConfig.cluster(SimulationConfig.names(3, null), Topology.MESH, seed, 50.0);
        List<long[]> messages = new ArrayList<>();
        new ClusterSimulator(config).run((MessageSink) (s, r, st, rt) -> messages.add(new long[] {s, r, st, rt}));
        MessageInput input = ListedMessages.input(config, messages);
        SyncResult fitted = Synchronizer.synchronize(input, Synchronizer.Options.defaults()).result();
        // a fit gone wrong: one non-reference node placed 100-300 us late (as a fallback line would)
        Random random = new Random(seed);
        SyncResult wrong = shifted(fitted, 100_000 + random.nextInt(200_000));
        int before = inversions(wrong, messages);
        assertThat(before).isGreaterThan(0);
        SyncResult repaired = ControlledLogicalClock.applyTo(wrong, input, 0);
        assertThat(repaired.stats().get("repair_inversions_before")).isEqualTo((long) before);
        assertThat(repaired.stats().get("repair_inversions_after")).isEqualTo(0L);
        assertThat(inversions(repaired, messages)).isZero();
        long moved = (long) repaired.stats().get("repair_events_moved");
        assertThat(moved).isGreaterThanOrEqualTo(before);
        double stretch = (double) repaired.stats().get("repair_max_stretch");
        assertThat(stretch).isGreaterThan(0.0);
        assertThat(repaired.warnings()).anyMatch(w -> w.startsWith("controlled logical clock:") && w.contains("0 inverted after repair"));
        // repairs only move events later, never earlier
        for (NodeResult n : repaired.nodes()) {
            for (long[] m : repaired.repairs().getOrDefault(n.name(), new long[0][])) {
                assertThat(m[1]).isGreaterThanOrEqualTo(n.transform().apply(m[0]));
            }
        }
        // and the good fit needs no repair
        SyncResult untouched = ControlledLogicalClock.applyTo(fitted, input, 0);
        assertThat(untouched.stats().get("repair_events_moved")).isEqualTo(0L);
        assertThat(untouched.repairs()).isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {5, 6})
    void absurdMessagesEndTheRepairWithAnHonestCount(long seed) throws Exception {
        SimulationConfig config = SimulationConfig.cluster(SimulationConfig.names(3, null), Topology.MESH, seed, 50.0);
        List<long[]> messages = new ArrayList<>();
        new ClusterSimulator(config).run((MessageSink) (s, r, st, rt) -> messages.add(new long[] {s, r, st, rt}));
        SyncResult fitted = Synchronizer.synchronize(ListedMessages.input(config, messages), Synchronizer.Options.defaults()).result();
        // received 0.5-2 ms before they were sent in true time: with traffic the other way in
        // that window they close causal cycles no clock can satisfy
        Random random = new Random(seed);
        List<long[]> dirty = new ArrayList<>(messages);
        for (int k = 0; k < 10; k++) {
            long[] m = messages.get(random.nextInt(messages.size()));
            long early = 500_000 + random.nextInt(1_500_000);
            dirty.add(new long[] {m[0], m[1], m[2], m[3] - (m[3] - m[2]) - early + offsetGuess(fitted, m)});
        }
        SyncResult repaired = ControlledLogicalClock.applyTo(fitted, ListedMessages.input(config, dirty), 0);
        long after = (long) repaired.stats().get("repair_inversions_after");
        assertThat(after).isEqualTo(inversions(repaired, dirty));
        assertThat(after).isLessThanOrEqualTo((long) repaired.stats().get("repair_inversions_before"));
        assertThat(repaired.warnings()).anyMatch(w -> w.contains(after + " inverted after repair"));
    }

    /** {@code r} with its first non-reference node's transform {@code by} ns later. */
    private static SyncResult shifted(SyncResult r, long by) {
        List<NodeResult> nodes = new ArrayList<>();
        boolean done = false;
        for (NodeResult n : r.nodes()) {
            if (!done && n.synchronizedToOther()) {
                done = true;
                List<org.tracesync.core.transform.LinearSegment> segs = new ArrayList<>();
                for (var s : n.transform().segments()) {
                    segs.add(new org.tracesync.core.transform.LinearSegment(s.from(), s.to(), s.origin(), s.offset() + by, s.drift()));
                }
                n = new NodeResult(n.name(), n.source(), n.reference(), n.quality(),
                        new org.tracesync.core.transform.ClockTransform(segs), n.bounds(), n.path(), n.start(), n.end(), n.note());
            }
            nodes.add(n);
        }
        return new SyncResult(r.reference(), nodes, r.pairs(), r.stats(), r.warnings());
    }

    /** The receiver's clock minus the sender's, as the fit sees it (so an injected receive is early in reference time). */
    private static long offsetGuess(SyncResult r, long[] m) {
        NodeResult s = r.nodes().get((int) m[0]);
        NodeResult d = r.nodes().get((int) m[1]);
        // reference time of the send, mapped back onto the receiver's clock
        double corrS = s.transform().correction(m[2]);
        double corrD = d.transform().correction(m[3]);
        return Math.round(corrS - corrD);
    }

    private static int inversions(SyncResult r, List<long[]> messages) {
        int inv = 0;
        for (long[] m : messages) {
            NodeResult s = r.nodes().get((int) m[0]);
            NodeResult d = r.nodes().get((int) m[1]);
            if (r.referenceTime(d.name(), d, m[3]) <= r.referenceTime(s.name(), s, m[2])) {
                inv++;
            }
        }
        return inv;
    }
}
