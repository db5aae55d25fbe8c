package org.tracesync.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;

/**
 * h ≈ n: a million messages each way whose points all lie on the hulls (a convex curve above the
 * line, a concave one below), as curved clocks or adversarial input can produce. Every stage must
 * stay O(h log h); this test would take minutes with an O(h²) envelope.
 */
class AdversarialHullSizeTest {

    @Test
    void aMillionHullPointsEachWayAreEstimatedAndReduced() throws Exception {
        int n = 1_000_000;
        long t0 = 1_700_000_000_000_000_000L;
        MessageInput input = new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return List.of(new NodeInfo("a", "sim"), new NodeInfo("b", "sim"));
            }

            @Override
            public void readMessages(MessageSink sink) {
                for (int i = 0; i < n; i++) {
                    long x = t0 + (long) i * 1_000;
                    long bend = (long) (i - n / 2) * (i - n / 2); // strictly convex: second difference 2 ns
                    sink.message(0, 1, x, x + 5_000_000 + 1_000 + bend);      // a → b, above
                    sink.message(1, 0, x + 5_000_000 - 1_000 - bend, x);      // b → a, below
                }
            }
        };
        Synchronizer.Synchronization s = Synchronizer.synchronize(input, Synchronizer.Options.defaults());
        assertThat(s.pairs().get(0).pu().length).isEqualTo(n);
        assertThat(s.pairs().get(0).qu().length).isEqualTo(n);
        assertThat(s.pairs().get(0).quality()).isEqualTo(Quality.ACCURATE);
        NodeResult b = s.result().node("b");
        assertThat(b.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(b.bounds().isEmpty()).isFalse();
        // the bounds in the middle of the trace are the ±1 µs corridor around the 5 ms offset
        long mid = t0 + (long) (n / 2) * 1_000 + 5_000_000;
        double corr = b.transform().correction(mid);
        assertThat(corr).isBetween(-5_001_000.0, -4_999_000.0);
    }
}
