package org.tracesync.global;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.repair.ControlledLogicalClock;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClockWander;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.KeyKind;
import org.tracesync.core.simulate.LatencyModel;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;
import org.tracesync.core.simulate.TruthScore;
import org.tracesync.core.transform.LinearSegment;

/**
 * Issue #13: clock steps in a group the global program with piecewise transforms solves. The
 * program adds a continuous correction to each node's path transform, so the path transform's
 * steps stay, and with them their either-side times (the local times where an event may have
 * come before or after a step). Three nodes, full mesh, 20 minutes at 50 messages/s per link and
 * direction, node 2's clock stepping −4.09 ms and +4.30 ms (the clocks of {@code simulate --nodes
 * 3 --topology mesh --steps 2 --seed 1}).
 */
class StepsGlobalReductionTest {

    private static final long START = SimulationConfig.DEFAULT_START;

    /**
     * Before, the program's transforms had no either-side times: 2 messages around the backward
     * step were counted inverted, and the repair pass moved 661 events by up to 7.3 ms (a local
     * interval changed by 426 %) to remove them.
     */
    @Test
    void theProgramKeepsTheStepsEitherSideTimesAndNoMessageIsInverted() throws Exception {
        long duration = 20 * 60_000_000_000L;
        LatencyModel latency = new LatencyModel(30_000, 30_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(3, null), START, 1,
                1_000_000_000L, 50e-6, 0.0);
        clocks = ClockWander.NONE.withSteps(2, 5_000_000L).apply(clocks, 1, START, duration);
        SimulationConfig config = new SimulationConfig(1, clocks, Topology.MESH.links(3, latency), START, duration, 50,
                false, 0, 0.0, KeyKind.MESSAGE_ID);
        assertThat(config.clocks().get(2).steps()).hasSize(2);
        MessageInput input = ClusterSimulator.input(config);
        SyncResult result = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("0")
                .withReducer(GlobalReduction.reducer(GlobalReduction.Mode.WHERE_REDUNDANT, 0.0))).result();
        assertThat(result.stats()).containsEntry("global_piecewise_groups", 1);
        List<LinearSegment> steps = result.node("2").transform().segments().stream()
                .filter(s -> s.eitherFrom() != null).toList();
        assertThat(steps).hasSize(2);
        for (LinearSegment s : steps) {
            assertThat(s.from()).isBetween(s.eitherFrom(), s.eitherTo());
        }
        Map<String, ClockModel> truth = config.clocks().stream()
                .collect(Collectors.toMap(ClockModel::name, Function.identity()));
        TruthScore score = new TruthScore(result, config.names(), truth, 2.0);
        new ClusterSimulator(config).run(score);
        assertThat(score.score().inversions()).as(score.score().firstViolation()).isZero();
        // the repair pass finds nothing to move
        SyncResult repaired = ControlledLogicalClock.applyTo(result, input, 0);
        assertThat(repaired.stats()).containsEntry("repair_inversions_before", 0L).containsEntry("repair_events_moved", 0L);
    }
}
