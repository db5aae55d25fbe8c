package org.tracesync.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue #12 item 15: statistics are not warnings; benign packet overlaps become one line per trace. */
class NotesTest {

    @Test
    void matchingCountsAreStatisticsAndOverlapsAreCondensed() {
        Notes n = Notes.of(List.of(
                "TCP matching: 46112 events, 19401 messages, 44 ambiguous keys dropped (41 retransmitted segments, 144"
                        + " duplicate events), 0 same-node, 0 evicted unmatched (window 60 s), 7078 unmatched at end",
                "VM1: /d/scp_src/channel0_0:offset 262144: timestamp goes backwards: packet begins at 1361214078861347508"
                        + " ns, 1505 ns before the previous packet's end",
                "VM1: /d/scp_src/channel0_0:offset 524288: timestamp goes backwards: packet begins at 1361214081494641708"
                        + " ns, 844 ns before the previous packet's end",
                "VM3: /d/scp_dest/channel0_0:offset 262144: timestamp goes backwards: packet begins at 1361214081327453610"
                        + " ns, 1698 ns before the previous packet's end",
                "12 keys sent or received more than once (retransmissions, duplicates) were dropped",
                "pair h1/h2 is fallback: hulls cross"));
        assertThat(n.warnings()).containsExactly("pair h1/h2 is fallback: hulls cross");
        assertThat(n.statistics()).hasSize(4);
        assertThat(n.statistics().get(0)).startsWith("TCP matching: 46112 events");
        assertThat(n.statistics().get(1)).isEqualTo("12 keys sent or received more than once (retransmissions,"
                + " duplicates) were dropped");
        assertThat(n.statistics().get(2)).isEqualTo("VM1: 2 packets begin before the previous one ends (by at most"
                + " 1505 ns): LTTng's per-CPU packets overlap slightly; every event is read");
        assertThat(n.statistics().get(3)).startsWith("VM3: 1 packet begins before");
    }

    @Test
    void unknownNotesStayWarnings() {
        Notes n = Notes.of(List.of("h1: 3 of 10 events have a timestamp earlier than a previous one", "x", "x"));
        assertThat(n.statistics()).isEmpty();
        assertThat(n.warnings()).containsExactly("h1: 3 of 10 events have a timestamp earlier than a previous one", "x");
    }
}
