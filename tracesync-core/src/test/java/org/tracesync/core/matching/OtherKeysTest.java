package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.Message;

/**
 * Keys that are not TCP segments between addressed hosts (message ids, add-on kernel events,
 * unicast datagrams) in the bounded matcher: matched by the same rule, never taken for TCP
 * retransmissions or exchanges; and the key limit.
 */
class OtherKeysTest {

    private static final long W = 1_000_000_000L;
    private final List<Message> out = new ArrayList<>();

    private void run(TcpMatcher m, EventBlock b) {
        m.match(b, null);
        m.finish();
    }

    @Test
    void messageIdsMatchExactlyShortAndLong() {
        TcpMatcher m = new TcpMatcher(2, W, (s, r, ts, tr) -> out.add(new Message(s, r, ts, tr)));
        EventBlock b = new EventBlock(16);
        String longId = "request-0123456789abcdef-0123456789abcdef";
        b.addMessageId(0, true, 100, "req-1");
        b.addMessageId(0, true, 110, longId);
        b.addMessageId(1, false, 150, "req-1");
        b.addMessageId(1, false, 160, longId);
        // ids differing in their last byte only, or by a trailing NUL (length), are other keys
        b.addMessageId(0, true, 170, "req-2");
        b.addMessageId(1, false, 180, "req-3");
        b.addMessageId(0, true, 190, "req-1\0");
        b.addMessageId(1, false, 200, longId.substring(0, longId.length() - 1) + "0");
        run(m, b);
        assertThat(out).containsExactly(new Message(0, 1, 100, 150), new Message(0, 1, 110, 160));
        assertThat(m.unmatchedAtEnd()).isEqualTo(4);
    }

    /**
     * Add-on kernel events carry only seq, ack and flags: a second segment re-sending earlier
     * sequence numbers is not a retransmission for them (no connection is known), and a data
     * segment with its acknowledgement gives no exchange.
     */
    @Test
    void segmentsWithoutAddressesTakeNoPartInFlowsOrExchanges() {
        TcpMatcher m = new TcpMatcher(2, W, (s, r, ts, tr) -> out.add(new Message(s, r, ts, tr)));
        EventBlock b = new EventBlock(16);
        b.addSegmentWithoutAddresses(0, true, 100, 5000, 1, 0x18);
        b.addSegmentWithoutAddresses(1, false, 150, 5000, 1, 0x18);
        b.addSegmentWithoutAddresses(1, true, 160, 1, 5100, 0x10);
        b.addSegmentWithoutAddresses(0, false, 210, 1, 5100, 0x10);
        b.addSegmentWithoutAddresses(0, true, 300, 4000, 1, 0x18); // lower seq: fine here
        b.addSegmentWithoutAddresses(1, false, 350, 4000, 1, 0x18);
        run(m, b);
        assertThat(out).containsExactly(new Message(0, 1, 100, 150), new Message(1, 0, 160, 210),
                new Message(0, 1, 300, 350));
        assertThat(m.retransmissions()).isZero();
        assertThat(m.exchanges()).isZero();
    }

    /** The same fields as a TCP segment with addresses are a different key (the kind bit). */
    @Test
    void otherKeysNeverMeetTcpSegments() {
        TcpMatcher m = new TcpMatcher(2, W, (s, r, ts, tr) -> out.add(new Message(s, r, ts, tr)));
        EventBlock b = new EventBlock(16);
        b.addSegment(0, true, 100, 0, 1, 1000, 2000, 7, 9, 0x10, 0);
        b.addUnicastDatagram(1, false, 150, 0, 1, 1000, 2000, 7, 9, 0);
        run(m, b);
        assertThat(out).isEmpty();
        assertThat(m.unmatchedAtEnd()).isEqualTo(2);
    }

    @Test
    void theKeyLimitBoundsWhatIsHeldAndCountsWhatWasDropped() {
        TcpMatcher m = new TcpMatcher(2, W, 100, (s, r, ts, tr) -> out.add(new Message(s, r, ts, tr)));
        EventBlock b = new EventBlock(2000);
        for (int i = 0; i < 1000; i++) {
            b.addMessageId(0, true, 1000 + i, "lonely-" + i);
        }
        // a message whose ends are close together is decided, complete, when the limit pushes it out
        b.addMessageId(0, true, 5000, "pair");
        b.addMessageId(1, false, 5001, "pair");
        for (int i = 0; i < 500; i++) {
            b.addMessageId(0, true, 6000 + i, "late-" + i);
        }
        run(m, b);
        assertThat(out).containsExactly(new Message(0, 1, 5000, 5001));
        assertThat(m.peakKeys()).isEqualTo(100);
        assertThat(m.limitEvictions()).isEqualTo(1502 - 1 - 100);
        assertThat(m.limitUnmatched()).isEqualTo(m.limitEvictions() - 1);
        assertThat(m.unmatchedAtEnd()).isEqualTo(100);
        assertThat(m.summary()).contains("key limit 100 reached: 1401 keys decided early, 1400 of them dropped unmatched");
    }
}
