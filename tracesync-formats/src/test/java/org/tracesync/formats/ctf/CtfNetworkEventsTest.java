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
}
