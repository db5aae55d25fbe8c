package org.tracesync.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConcatenatedMessageInputTest {

    /** A part with two nodes, one message each way and, when it finds exchanges, one exchange. */
    private static MessageInput part(String prefix, boolean findsExchanges) {
        return new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return List.of(new NodeInfo(prefix + "0", prefix), new NodeInfo(prefix + "1", prefix));
            }

            @Override
            public void readMessages(MessageSink sink) {
                sink.message(0, 1, 10, 20);
                sink.message(1, 0, 30, 40);
            }

            @Override
            public boolean readMessages(MessageSink messages, ExchangeSink exchanges) {
                readMessages(messages);
                if (findsExchanges) {
                    exchanges.exchange(0, 1, 10, 20, 30, 40);
                }
                return findsExchanges;
            }
        };
    }

    /**
     * Exchanges of a part that finds them reach the caller with the part's node indices moved,
     * and the caller can tell which pairs were looked at: a capture pair keeps its exchanges when
     * span files are given with it (before, the concatenation dropped them all).
     */
    @Test
    void exchangesAreForwardedAndKnownPerPart() throws IOException {
        ConcatenatedMessageInput in = new ConcatenatedMessageInput(List.of(part("s", false), part("c", true)));
        List<long[]> messages = new ArrayList<>();
        List<long[]> exchanges = new ArrayList<>();
        boolean known = in.readMessages((s, r, ts, tr) -> messages.add(new long[] {s, r, ts, tr}),
                (a, b, t1, t2, t3, t4) -> exchanges.add(new long[] {a, b, t1, t2, t3, t4}));
        assertThat(known).isTrue();
        assertThat(messages).hasSize(4);
        assertThat(exchanges).containsExactly(new long[] {2, 3, 10, 20, 30, 40});
        assertThat(in.exchangesLookedFor(2, 3)).isTrue();
        assertThat(in.exchangesLookedFor(3, 2)).isTrue();
        assertThat(in.exchangesLookedFor(0, 1)).isFalse();
        assertThat(in.exchangesLookedFor(1, 2)).isFalse();
    }

    @Test
    void noPartFindingExchangesIsNotKnown() throws IOException {
        ConcatenatedMessageInput in = new ConcatenatedMessageInput(List.of(part("s", false), part("t", false)));
        boolean known = in.readMessages((s, r, ts, tr) -> { }, (a, b, t1, t2, t3, t4) -> { });
        assertThat(known).isFalse();
    }
}
