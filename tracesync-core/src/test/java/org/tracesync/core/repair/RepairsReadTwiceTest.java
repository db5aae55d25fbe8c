package org.tracesync.core.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.evaluate.Evaluation;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.RepairMoves;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.transform.BackwardStepTest;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;

/**
 * The repair's {@code repairs} list around a backward step: two moved events of node 1 at one
 * local time x that its clock read twice, once before the step and once after. {@link
 * BackwardStepTest}'s clocks (seeds whose first step goes back), plus two messages at x: one sent
 * by node 1 before the step (placed on the line before it, forward), one received after the step
 * and impossible (sent 200 µs after x's later reading). The repair moves the impossible receive by
 * about 200 µs and, amortizing backwards, the send at x too. Keyed by local time alone the list
 * kept one entry for both (the send's, first in reference order), so every reader gave the
 * impossible receive the send's time and eval still found it inverted after the repair. Each
 * moved event is now one entry, its local time and its reading before the repair telling it from
 * the other reading of the same local time.
 */
class RepairsReadTwiceTest {

    private static final long LATE = 200_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 13})
    void twoMovedEventsAtATimeReadTwiceAreTwoEntriesEachWithItsOwnTime(long seed) throws Exception {
        SimulationConfig config = BackwardStepTest.config(seed, 20, 50);
        List<long[]> messages = new ArrayList<>();
        new ClusterSimulator(config).run((MessageSink) (s, r, st, rt) -> messages.add(new long[] {s, r, st, rt}));
        SyncResult fitted = Synchronizer.synchronize(ListedMessages.input(config, messages),
                Synchronizer.Options.defaults().withReference("0")).result();
        NodeResult b = fitted.nodes().get(1);
        ClockTransform tr = b.transform();
        int k = 1;
        while (tr.readTwiceEnd(k) <= tr.segments().get(k).from()) {
            k++;
        }
        LinearSegment before = tr.segments().get(k - 1);
        LinearSegment after = tr.segments().get(k);
        long x = after.from() + (tr.readTwiceEnd(k) - after.from()) / 2;
        long early = before.apply(x);
        long late = after.apply(x);
        assertThat(late - early).isGreaterThan(1_000_000L); // a backward step of 1-5 ms
        List<long[]> dirty = new ArrayList<>(messages);
        dirty.add(new long[] {1, 0, x, early + 100_000}); // sent before the step, 100 µs on the way
        dirty.add(new long[] {0, 1, late + LATE, x}); // received after it, 200 µs before it was sent
        MessageInput input = ListedMessages.input(config, dirty);

        SyncResult repaired = ControlledLogicalClock.applyTo(fitted, input, 0);
        assertThat(repaired.stats().get("repair_inversions_before")).isEqualTo(1L);
        assertThat(repaired.stats().get("repair_inversions_after")).isEqualTo(0L);
        long[][] moves = repaired.repairs().get("1");
        List<long[]> atX = Arrays.stream(moves).filter(m -> m[0] == x).toList();
        assertThat(atX).hasSize(2);
        // one entry per moved event: the list is as long as the count the summary gives
        long listed = repaired.repairs().values().stream().mapToLong(m -> m.length).sum();
        assertThat(listed).isEqualTo((long) repaired.stats().get("repair_events_moved"));
        // each reading gets its own repaired time: the receive after the impossible send
        long receive = RepairMoves.referenceTime(moves, x, late);
        long send = RepairMoves.referenceTime(moves, x, early);
        assertThat(receive).isGreaterThanOrEqualTo(late + LATE + 1);
        assertThat(send).isLessThan(early + 100_000).isGreaterThanOrEqualTo(early);
        Evaluation eval = new Evaluation(repaired, config.names(), null, null);
        input.readMessages(eval.messages());
        assertThat(eval.report().inversions()).isZero();
    }
}
