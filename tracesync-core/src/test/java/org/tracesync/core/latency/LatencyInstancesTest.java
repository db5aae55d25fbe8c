package org.tracesync.core.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.latency.LatencyInstances.Kind;

/** What is measured, what is counted and never guessed (DESIGN §6b), and the causal pairs. */
class LatencyInstancesTest {

    private static List<String> measured(LatencyInstances inst) {
        LatencyInstances.Measurements m = inst.measurements();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            out.add(m.kind(i) + " " + inst.events().eventName(m.event(i)) + "#" + m.seq(i) + " " + m.fromStep(i) + "->"
                    + m.toStep(i) + " " + m.fromNode(i) + "->" + m.toNode(i) + " " + (m.timeTo(i) - m.timeFrom(i)));
        }
        return out;
    }

    @Test
    void aCompleteChainGivesItsTransitionsItsEndToEndAndCausalPairsBetweenNodes() {
        LatencyEvents ev = new LatencyEvents();
        int x = ev.node("x", "a");
        int y = ev.node("y", "b");
        int order = ev.event("order");
        // given out of order on purpose: sorting is the analysis's job
        ev.step(y, order, 5, 3, 1_300);
        ev.step(x, order, 5, 1, 1_000);
        ev.step(x, order, 5, 4, 1_500);
        ev.step(y, order, 5, 2, 1_120);
        LatencyInstances inst = LatencyInstances.find(ev);
        assertThat(measured(inst)).containsExactly(
                "TRANSITION order#5 1->2 0->1 120",
                "TRANSITION order#5 2->3 1->1 180",
                "TRANSITION order#5 3->4 1->0 200",
                "END_TO_END order#5 1->4 0->0 500");
        assertThat(inst.causalPairs()).isEqualTo(2);
        long[] p = new long[4];
        inst.causalPair(0, p);
        assertThat(p).containsExactly(x, y, 1_000, 1_120);
        inst.causalPair(1, p);
        assertThat(p).containsExactly(y, x, 1_300, 1_500);
        assertThat(inst.chainAnomalies(order).clean()).isTrue();
        assertThat(inst.steps(order)).containsExactly(1, 2, 3, 4);
    }

    @Test
    void missingAndDuplicatedStepsAreCountedAndNeverBridged() {
        LatencyEvents ev = new LatencyEvents();
        int x = ev.node("x", "a");
        int y = ev.node("y", "b");
        int e = ev.event("order");
        for (int s = 1; s <= 3; s++) { // seq 1 complete: defines steps 1..3
            ev.step(s == 2 ? y : x, e, 1, s, 100 * s);
        }
        ev.step(x, e, 2, 1, 1_000);   // seq 2: step 2 missing
        ev.step(x, e, 2, 3, 1_300);
        ev.step(x, e, 3, 1, 2_000);   // seq 3: step 2 twice
        ev.step(y, e, 3, 2, 2_100);
        ev.step(y, e, 3, 2, 2_150);
        ev.step(x, e, 3, 3, 2_300);
        LatencyInstances inst = LatencyInstances.find(ev);
        assertThat(measured(inst)).containsExactly(
                "TRANSITION order#1 1->2 0->1 100", "TRANSITION order#1 2->3 1->0 100", "END_TO_END order#1 1->3 0->0 200");
        LatencyInstances.Anomalies a = inst.chainAnomalies(e);
        assertThat(a.instances).isEqualTo(3);
        assertThat(a.measured).isEqualTo(1);
        assertThat(a.incomplete).isEqualTo(1);
        assertThat(a.duplicatedSteps).isEqualTo(1);
        // seq 3 still gives a causal pair? No: its unique steps 1 and 3 are both on x
        assertThat(inst.causalPairs()).isEqualTo(2);
    }

    @Test
    void simpleEventsNeedOneStartAndOneStopOnOneNode() {
        LatencyEvents ev = new LatencyEvents();
        int x = ev.node("x", "a");
        int y = ev.node("y", "b");
        int r = ev.event("render");
        ev.start(x, r, 1, 100);
        ev.stop(x, r, 1, 170);
        ev.stop(x, r, 2, 300);          // stop without start
        ev.start(x, r, 3, 400);         // start without stop
        ev.start(x, r, 4, 500);         // repeated start
        ev.start(x, r, 4, 510);
        ev.stop(x, r, 4, 600);
        ev.start(x, r, 5, 700);         // start on x, stop on y: two incomplete instances, not one
        ev.stop(y, r, 5, 720);
        LatencyInstances inst = LatencyInstances.find(ev);
        assertThat(measured(inst)).containsExactly("SIMPLE render#1 0->0 0->0 70");
        LatencyInstances.Anomalies a = inst.simpleAnomalies(r);
        assertThat(a.instances).isEqualTo(6);
        assertThat(a.measured).isEqualTo(1);
        assertThat(a.stopWithoutStart).isEqualTo(2);
        assertThat(a.startWithoutStop).isEqualTo(2);
        assertThat(a.repeated).isEqualTo(1);
        assertThat(inst.chainAnomalies(r)).isNull();
    }

    @Test
    void sequenceNumbersGoingBackwardsAreCountedButStillMeasured() {
        LatencyEvents ev = new LatencyEvents();
        int x = ev.node("x", "a");
        int r = ev.event("render");
        long[] seqs = {1, 2, 5, 3, 4, 6};
        for (int k = 0; k < seqs.length; k++) {
            ev.start(x, r, seqs[k], 1_000L * k);
            ev.stop(x, r, seqs[k], 1_000L * k + 10);
        }
        LatencyInstances inst = LatencyInstances.find(ev);
        assertThat(inst.measurements().size()).isEqualTo(6);
        assertThat(inst.simpleAnomalies(r).seqOutOfOrder).isEqualTo(2); // 3 and 4 come after 5
    }

    @Test
    void aLaterStepEarlierOnTheSameNodeIsCounted() {
        LatencyEvents ev = new LatencyEvents();
        int x = ev.node("x", "a");
        int e = ev.event("order");
        ev.step(x, e, 1, 1, 500);
        ev.step(x, e, 1, 2, 400);
        LatencyInstances inst = LatencyInstances.find(ev);
        assertThat(inst.chainAnomalies(e).stepsBackwardsInTime).isEqualTo(1);
        assertThat(measured(inst)).containsExactly("TRANSITION order#1 1->2 0->0 -100", "END_TO_END order#1 1->2 0->0 -100");
        assertThat(inst.measurements().kind(0)).isEqualTo(Kind.TRANSITION);
    }
}
