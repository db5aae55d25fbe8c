package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BroadcastMatcherTest {

    record Group(int sender, long sendTime, List<Integer> receivers, List<Long> times) {
    }

    private final List<Group> groups = new ArrayList<>();
    private final BroadcastMatcher m = new BroadcastMatcher(1_000_000_000L, (s, st, r, rt) -> groups.add(
            new Group(s, st, java.util.Arrays.stream(r).boxed().toList(), java.util.Arrays.stream(rt).boxed().toList())));

    @Test
    void oneDatagramSeenByThreeReceiversIsOneGroup() {
        m.datagram(0, true, 100, 1, 2, 3);
        m.datagram(1, false, 150, 1, 2, 3);
        m.datagram(2, false, 160, 1, 2, 3);
        m.datagram(3, false, 155, 1, 2, 3);
        m.datagram(1, false, 170, 9, 9, 9); // another datagram, one receiver only
        m.finish();
        assertThat(groups).containsExactly(new Group(0, 100, List.of(1, 2, 3), List.of(150L, 160L, 155L)));
        assertThat(m.single()).isEqualTo(1);
    }

    @Test
    void aReceiverSeeingItTwiceMakesItAmbiguous() {
        m.datagram(1, false, 150, 1, 2, 3);
        m.datagram(2, false, 160, 1, 2, 3);
        m.datagram(2, false, 161, 1, 2, 3);
        m.finish();
        assertThat(groups).isEmpty();
        assertThat(m.ambiguous()).isEqualTo(1);
    }

    @Test
    void untracedSenderStillGivesAGroup() {
        m.datagram(1, false, 150, 4, 5, 6);
        m.datagram(2, false, 160, 4, 5, 6);
        m.finish();
        assertThat(groups).singleElement().extracting(Group::sender).isEqualTo(-1);
    }
}
