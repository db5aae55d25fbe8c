package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.tracesync.core.matching.KeyMatcher;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.NetEvent;

class CtfNetworkEventsTest {

    @Test
    void scpTracesGiveFortySixMessages() throws Exception {
        CtfTrace src = CtfTrace.open(SharedCtfData.trace("scp_src"));
        CtfTrace dest = CtfTrace.open(SharedCtfData.trace("scp_dest"));
        assertThat(src.node().name()).isEqualTo("VM1");
        assertThat(dest.node().name()).isEqualTo("VM3");

        KeyMatcher matcher = new KeyMatcher();
        List<NetEvent> srcEvents = new ArrayList<>();
        src.stream(e -> {
            srcEvents.add(e);
            matcher.add(0, e);
        });
        dest.stream(matcher.sinkFor(1));
        List<Message> messages = new ArrayList<>();
        matcher.finish((s, r, ts, tr) -> messages.add(new Message(s, r, ts, tr)));

        assertThat(messages).hasSize(46);
        assertThat(messages.stream().filter(m -> m.sender() == 0).count()).isEqualTo(24);
        assertThat(messages.stream().filter(m -> m.sender() == 1).count()).isEqualTo(22);
        // the clocks differ by about 80 ms; latencies are small against that
        for (Message m : messages) {
            long apparent = m.recvTime() - m.sendTime();
            long offsetGuess = m.sender() == 0 ? apparent : -apparent;
            assertThat(Math.abs(offsetGuess)).isBetween(10_000_000L, 200_000_000L);
        }
        assertThat(srcEvents).anyMatch(e -> e.direction() == Direction.SEND)
                .anyMatch(e -> e.direction() == Direction.RECEIVE);
    }

    @Test
    void scpSourceReportsTimestampsGoingBackwardsAndReadsOn() throws Exception {
        CtfTrace src = CtfTrace.open(SharedCtfData.trace("scp_src"));
        long[] count = {0};
        src.read(e -> count[0]++);
        assertThat(count[0]).isEqualTo(src.lastReadStats().get(0).events());
        assertThat(src.lastReadStats().get(0).backwardSteps()).isPositive();
        assertThat(src.warnings()).isNotEmpty().allSatisfy(w -> assertThat(w)
                .contains("channel0_0:offset ").contains("timestamp goes backwards"));
    }

    @Test
    void headerlessNetworkEventsAreCountedAndExplained() throws Exception {
        CtfTrace t = CtfTrace.open(SharedCtfData.trace("bug446190"));
        List<NetEvent> got = new ArrayList<>();
        t.stream(got::add);
        assertThat(got).isEmpty();
        CtfNetworkEvents net = new CtfNetworkEvents(e -> { });
        t.read(net);
        assertThat(net.summary().headerless()).isPositive();
        long[] expected = {0};
        t.read(e -> {
            String n = e.eventClass().name();
            if (n.equals("net_dev_queue") || n.equals("netif_receive_skb") || n.equals("net_if_receive_skb")) {
                expected[0]++;
            }
        });
        assertThat(net.summary().headerless()).isEqualTo(expected[0]);
        t.stream(e -> { });
        assertThat(t.warnings()).anyMatch(w -> w.contains("carry no IP headers"));
    }

    @Test
    void scpSourceAddressesComeFromTheStatedump() throws Exception {
        CtfTrace src = CtfTrace.open(SharedCtfData.trace("scp_src"));
        CtfNetworkEvents net = new CtfNetworkEvents(e -> { });
        src.read(net);
        CtfNetworkEvents.Summary s = net.summary();
        assertThat(s.layout()).isEqualTo(CtfNetworkEvents.Layout.ADDON);
        assertThat(s.sends()).isPositive();
        assertThat(s.receives()).isPositive();
        assertThat(src.node().addresses()).isEqualTo(s.addresses());
    }

    /**
     * The node's addresses come from reading only up to the end of the statedump, and equal those
     * of a whole read (where the trace has a statedump end, fewer events are decoded for them).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"scp_src", "scp_dest", "bug446190", "ust-tracef"})
    void addressesNeedOnlyTheStatedump(String name) throws Exception {
        CtfTrace whole = CtfTrace.open(SharedCtfData.trace(name));
        CtfNetworkEvents net = new CtfNetworkEvents(e -> { });
        whole.read(net);
        long all = whole.lastReadStats().stream().mapToLong(CtfTrace.StreamStats::events).sum();
        boolean[] hasEnd = {false};
        whole.read(e -> hasEnd[0] |= e.eventClass().name().equals("lttng_statedump_end"));

        CtfTrace t = CtfTrace.open(SharedCtfData.trace(name));
        assertThat(t.node().addresses()).isEqualTo(net.summary().addresses());
        long decoded = t.lastReadStats().stream().mapToLong(CtfTrace.StreamStats::events).sum();
        if (name.equals("ust-tracef")) {
            assertThat(decoded).isZero(); // its metadata has no statedump events: nothing read
        } else if (hasEnd[0]) {
            assertThat(decoded).isLessThan(all);
        } else {
            assertThat(decoded).isEqualTo(all);
        }
        // the full stream afterwards still sees every event
        List<NetEvent> got = new ArrayList<>();
        t.stream(got::add);
        assertThat(t.lastReadStats().stream().mapToLong(CtfTrace.StreamStats::events).sum()).isEqualTo(all);
    }
}
