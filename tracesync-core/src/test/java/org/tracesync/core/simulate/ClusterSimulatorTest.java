package org.tracesync.core.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.KeyMatcher;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.NetEvent;

class ClusterSimulatorTest {

    private static SimulationConfig config(long seed) {
        return SimulationConfig.cluster(SimulationConfig.names(4, "h"), Topology.MESH, seed, 50)
                .withTraffic(2_000_000_000L, 50);
    }

    private record Recorded(int node, int peer, NetEvent event) {
    }

    private static List<Recorded> events(SimulationConfig c) {
        List<Recorded> out = new ArrayList<>();
        new ClusterSimulator(c).run(new SimulationSink() {
            @Override
            public void event(int node, int peer, NetEvent event) {
                out.add(new Recorded(node, peer, event));
            }
        });
        return out;
    }

    private static List<Message> messages(SimulationConfig c) {
        List<Message> out = new ArrayList<>();
        new ClusterSimulator(c).run((s, r, ts, tr) -> out.add(new Message(s, r, ts, tr)));
        return out;
    }

    @Test
    void sameSeedSameOutputOtherSeedOtherOutput() {
        assertThat(events(config(7))).isEqualTo(events(config(7)));
        assertThat(messages(config(7))).isEqualTo(messages(config(7)));
        assertThat(messages(config(8))).isNotEqualTo(messages(config(7)));
    }

    @Test
    void topologiesHaveTheExpectedLinks() {
        LatencyModel l = LatencyModel.exponential(1000, 100);
        assertThat(Topology.CHAIN.links(4, l)).extracting(Link::a, Link::b)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(1, 2),
                        org.assertj.core.groups.Tuple.tuple(2, 3));
        assertThat(Topology.STAR.links(4, l)).extracting(Link::a).containsOnly(0);
        assertThat(Topology.STAR.links(4, l)).hasSize(3);
        assertThat(Topology.MESH.links(5, l)).hasSize(10);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void everyMessageTakesAtLeastTheMinimumLatencyInTrueTime(long seed) {
        SimulationConfig c = config(seed).withClocks(SimulationConfig.randomClocks(SimulationConfig.names(4, "h"),
                SimulationConfig.DEFAULT_START, seed, 2_000_000_000L, 1e-4, 1e-17));
        List<ClockModel> clocks = c.clocks();
        List<Message> ms = messages(c);
        assertThat(ms).hasSizeGreaterThan(500); // 6 links × 2 directions × 50/s × 2 s ≈ 1200
        for (Message m : ms) {
            long ts = clocks.get(m.sender()).trueTime(m.sendTime());
            long tr = clocks.get(m.receiver()).trueTime(m.recvTime());
            long minimum = m.sender() < m.receiver() ? 60_000 : 80_000; // mesh links go low → high
            assertThat(tr - ts).isGreaterThanOrEqualTo(minimum - 2);
            assertThat(tr - ts).isLessThan(60_000_000L);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void eventsAreInLocalOrderPerNodeAndMatchBackToTheSameMessages(long seed) {
        SimulationConfig c = config(seed).withAcks(20_000);
        List<Recorded> events = events(c);
        long[] last = new long[4];
        java.util.Arrays.fill(last, Long.MIN_VALUE);
        KeyMatcher matcher = new KeyMatcher();
        for (Recorded e : events) {
            assertThat(e.event().timestamp()).isGreaterThanOrEqualTo(last[e.node()]);
            last[e.node()] = e.event().timestamp();
            matcher.add(e.node(), e.event());
        }
        Set<Message> matched = new HashSet<>();
        matcher.finish((s, r, ts, tr) -> matched.add(new Message(s, r, ts, tr)));
        assertThat(matcher.ambiguous()).isZero();
        assertThat(matcher.unmatched()).isZero();
        assertThat(matched).containsExactlyInAnyOrderElementsOf(messages(c));
        ClusterSimulator.Summary summary = new ClusterSimulator(c).run(new SimulationSink() { });
        assertThat(summary.acks()).isEqualTo(summary.dataMessages());
        assertThat(summary.messages()).isEqualTo(2 * summary.dataMessages());
    }

    @Test
    void broadcastsReachEveryNeighbourWithOneKey() {
        SimulationConfig c = config(3).withTraffic(1_000_000_000L, 0).withBroadcasts(20);
        Map<Object, Integer> sends = new HashMap<>();
        Map<Object, Integer> receives = new HashMap<>();
        for (Recorded e : events(c)) {
            (e.event().direction() == Direction.SEND ? sends : receives).merge(e.event().key(), 1, Integer::sum);
            if (e.event().direction() == Direction.SEND) {
                assertThat(e.peer()).isEqualTo(-1);
            }
        }
        assertThat(sends).hasSizeGreaterThan(40);
        assertThat(sends.values()).containsOnly(1);
        assertThat(receives.keySet()).isEqualTo(sends.keySet());
        assertThat(receives.values()).containsOnly(3); // mesh of 4: three neighbours each
    }

    @Test
    void tcpKeysAreUniqueSegments() {
        SimulationConfig c = config(5).withKeys(KeyKind.TCP).withAcks(10_000);
        Set<Object> sent = new HashSet<>();
        for (Recorded e : events(c)) {
            assertThat(e.event().key()).isInstanceOf(TcpSegmentKey.class);
            if (e.event().direction() == Direction.SEND) {
                assertThat(sent.add(e.event().key())).as("duplicate %s", e.event().key()).isTrue();
            }
        }
        assertThat(sent).hasSizeGreaterThan(500);
        assertThat(new MessageIdKey("m1")).isEqualTo(new MessageIdKey("m1"));
    }
}
