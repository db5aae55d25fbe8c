package org.tracesync.core.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.evaluate.Evaluation;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.transform.BackwardStepTest;

/**
 * The repair pass near a clock step (issue #13 item 4): two nodes whose second clock steps twice
 * (1–5 ms either way; {@link BackwardStepTest}'s clocks, 20 minutes at 50 messages/s), fitted
 * without inversion, plus one impossible message 0.5 s after the first step (received 200 µs
 * before it was sent). Its window holds the messages around the step, whose ends there have two
 * readings. The repair places them as the detection and {@code eval} do (by the other end,
 * MessageEnds), so it finds the one impossible message only and moves events by about its
 * 200 µs, not by a step's size; after it nothing is inverted.
 */
class RepairAroundAStepTest {

    private static final long LATE = 200_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 4, 12, 13})
    void onlyTheImpossibleMessageIsRepairedNextToAStep(long seed) throws Exception {
        SimulationConfig config = BackwardStepTest.config(seed, 20, 50);
        List<long[]> messages = new ArrayList<>();
        new ClusterSimulator(config).run((MessageSink) (s, r, st, rt) -> messages.add(new long[] {s, r, st, rt}));
        SyncResult fitted = Synchronizer.synchronize(ListedMessages.input(config, messages),
                Synchronizer.Options.defaults().withReference("0")).result();
        ClockStep step = fitted.pairs().get(0).steps().get(0);
        NodeResult b = fitted.nodes().get(1);
        // node 0 is the reference: its local times are reference times
        long sent = step.latest() + 500_000_000L;
        long received = sent - LATE - Math.round(b.transform().correction(sent));
        received = sent - LATE - Math.round(b.transform().correction(received)); // its own correction (drift)
        assertThat(b.transform().stepAround(received)).isEqualTo(-1);
        List<long[]> dirty = new ArrayList<>(messages);
        dirty.add(new long[] {0, 1, sent, received});
        MessageInput input = ListedMessages.input(config, dirty);

        SyncResult repaired = ControlledLogicalClock.applyTo(fitted, input, 0);
        assertThat(repaired.stats().get("repair_inversions_before")).isEqualTo(1L);
        assertThat(repaired.stats().get("repair_inversions_after")).isEqualTo(0L);
        assertThat((double) repaired.stats().get("repair_max_shift_ns")).isBetween(0.9 * LATE, 2.0 * LATE);
        Evaluation eval = new Evaluation(repaired, config.names(), null, null);
        input.readMessages(eval.messages());
        assertThat(eval.report().inversions()).isZero();
    }
}
