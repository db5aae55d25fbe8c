package org.tracesync.core.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two readings of a local time around a clock step ({@link ClockTransform#stepAround}) and the
 * readers that pick one by the event's position: {@link MessageEnds} (by the message's other end)
 * and {@link ReadingsInOrder} (by the trace's order).
 */
class StepReadingsTest {

    private static final long C = 1_700_000_100_000_000_000L; // the cut, on a's clock
    private static final long MS = 1_000_000L;

    /**
     * The pair's transform a → b: b = a + 1 s, and at a-time C b's clock steps back by 4 ms; the
     * step's interval (the messages place it no closer) is [C − 50 ms, C + 30 ms].
     */
    private static ClockTransform pairWithBackwardStep() {
        return new ClockTransform(List.of(new LinearSegment(null, C, C, 1e9, 0),
                new LinearSegment(C, null, C, 1e9 - 4 * MS, 0, C - 50 * MS, C + 30 * MS + 1)));
    }

    @Test
    void theInverseCutsAtTheFirstTimeReadAfterABackwardStepAndKnowsWhatWasReadTwice() {
        ClockTransform b = pairWithBackwardStep().inverse(); // b's clock → a's
        long first = C + 1_000 * MS - 4 * MS; // the first local time b read after the step
        assertThat(b.segments().get(1).from()).isEqualTo(first);
        // b read [first, first + 4 ms) twice: before the step (then a-time = t − 1 s) and after it
        assertThat(b.readTwiceEnd(1)).isEqualTo(first + 4 * MS);
        assertThat(b.readTwice(first - 1)).isFalse();
        assertThat(b.readTwice(first)).isTrue();
        assertThat(b.readTwice(first + 4 * MS - 1)).isTrue();
        assertThat(b.readTwice(first + 4 * MS)).isFalse();
        // either-side times: the images of the step's interval on either line
        assertThat(b.segments().get(1).eitherFrom()).isEqualTo(C - 50 * MS + 1_000 * MS - 4 * MS);
        assertThat(b.segments().get(1).eitherTo()).isEqualTo(C + 30 * MS + 1 + 1_000 * MS);
        assertThat(b.stepAround(C - 50 * MS + 996 * MS - 1)).isEqualTo(-1);
        assertThat(b.stepAround(C - 50 * MS + 996 * MS)).isEqualTo(1);
        assertThat(b.stepAround(C + 30 * MS + 1_000 * MS)).isEqualTo(1);
        assertThat(b.stepAround(C + 30 * MS + 1_000 * MS + 1)).isEqualTo(-1);
        // composition keeps them (here with a reference 2 ms ahead)
        ClockTransform shifted = b.then(ClockTransform.linear(C, 2 * MS, 0));
        assertThat(shifted.segments().get(1).eitherFrom()).isEqualTo(b.segments().get(1).eitherFrom());
        assertThat(shifted.segments().get(1).eitherTo()).isEqualTo(b.segments().get(1).eitherTo());
        assertThat(shifted.stepAround(first + MS)).isEqualTo(1);
    }

    @Test
    void withoutEitherSideTimesOnlyTheTimesReadTwiceHaveTwoReadings() {
        ClockTransform b = new ClockTransform(List.of(new LinearSegment(null, C, C, -1e9, 0),
                new LinearSegment(C, null, C, -1e9 + 4 * MS, 0)));
        assertThat(b.stepAround(C - 1)).isEqualTo(-1);
        assertThat(b.stepAround(C)).isEqualTo(1);
        assertThat(b.stepAround(C + 4 * MS - 1)).isEqualTo(1);
        assertThat(b.stepAround(C + 4 * MS)).isEqualTo(-1);
        // a forward step (the correction jumps down) reads nothing twice
        ClockTransform f = new ClockTransform(List.of(new LinearSegment(null, C, C, -1e9, 0),
                new LinearSegment(C, null, C, -1e9 - 4 * MS, 0)));
        assertThat(f.readTwiceEnd(1)).isEqualTo(C);
        assertThat(f.stepAround(C)).isEqualTo(-1);
        // nor does a continuous knot (double rounding only)
        ClockTransform k = new ClockTransform(List.of(new LinearSegment(null, C, C, 5.0, 1e-6),
                new LinearSegment(C, null, C, 5.0000001, 2e-6)));
        assertThat(k.stepAround(C)).isEqualTo(-1);
    }

    /** The times read twice end exactly where the line before reaches the cut, with drifts too (seeded). */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void theEndOfTheTimesReadTwiceIsExactToTheNanosecond(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 500; i++) {
            double d0 = r.nextDouble(-1e-4, 1e-4);
            double d1 = d0 + r.nextDouble(-1e-6, 1e-6);
            long cut = C + r.nextLong(1_000_000 * MS);
            double offset = r.nextDouble(-3e9, 3e9);
            double jump = r.nextDouble(1.0, 10 * MS);
            ClockTransform t = new ClockTransform(List.of(new LinearSegment(null, cut, C, offset, d0),
                    new LinearSegment(cut, null, cut, offset + d0 * (cut - C) + jump, d1)));
            long end = t.readTwiceEnd(1);
            long start = t.segments().get(1).apply(cut);
            assertThat(t.segments().get(0).apply(end)).isGreaterThanOrEqualTo(start);
            assertThat(t.segments().get(0).apply(end - 1)).isLessThan(start);
            assertThat(t.readTwice(end - 1)).isEqualTo(end - 1 >= cut);
            assertThat(t.readTwice(end)).isFalse();
        }
    }

    @Test
    void aMessageEndAroundAStepTakesTheReadingNearestItsOtherEndThatKeepsItForward() {
        ClockTransform b = pairWithBackwardStep().inverse();
        ClockTransform a = ClockTransform.identity(C);
        long y = C + 997 * MS; // read twice: a-time C − 3 ms before the step, C + 1 ms after
        assertThat(b.segments().get(0).apply(y)).isEqualTo(C - 3 * MS);
        assertThat(b.segments().get(1).apply(y)).isEqualTo(C + MS);
        // local time alone: after the step
        assertThat(b.apply(y)).isEqualTo(C + MS);
        // b sent at y, a received at C − 3 ms + 40 µs: it was sent before the step
        assertThat(MessageEnds.send(b, y, C - 3 * MS + 40_000)).isEqualTo(C - 3 * MS);
        assertThat(MessageEnds.sendCorrection(b, y, C - 3 * MS + 40_000, a.correction(C)))
                .isEqualTo(-1e9);
        // … received at C + 1 ms + 40 µs: sent after it (both readings forward: the nearer)
        assertThat(MessageEnds.send(b, y, C + MS + 40_000)).isEqualTo(C + MS);
        // b received at y, sent at C − 3 ms − 40 µs: received before the step (the nearer)
        assertThat(MessageEnds.receive(b, y, C - 3 * MS - 40_000)).isEqualTo(C - 3 * MS);
        assertThat(MessageEnds.receiveCorrection(b, y, C - 3 * MS - 40_000, 0.0)).isEqualTo(-1e9);
        // … sent at C + 1 ms − 40 µs: received after it
        assertThat(MessageEnds.receive(b, y, C + MS - 40_000)).isEqualTo(C + MS);
        assertThat(MessageEnds.receiveCorrection(b, y, C + MS - 40_000, 0.0)).isEqualTo(-1e9 + 4 * MS);
        // neither reading keeps it forward: the local time's, and the inversion shows
        assertThat(MessageEnds.send(b, y, C - 4 * MS)).isEqualTo(C + MS);
        // inside the step's interval but not read twice (a-time C + 20 ms after, C + 16 ms before)
        long z = C + 1_016 * MS;
        assertThat(b.readTwice(z)).isFalse();
        assertThat(b.stepAround(z)).isEqualTo(1);
        assertThat(MessageEnds.send(b, z, C + 16 * MS + 40_000)).isEqualTo(C + 16 * MS);
        assertThat(MessageEnds.send(b, z, C + 20 * MS + 40_000)).isEqualTo(C + 20 * MS);
        // away from the step: the local time's segment whatever the other end says
        long far = C + 2_000 * MS;
        assertThat(MessageEnds.send(b, far, C)).isEqualTo(b.apply(far));
        assertThat(MessageEnds.receive(b, far, C + 5_000 * MS)).isEqualTo(b.apply(far));
    }

    @Test
    void aTraceReadInOrderKeepsItsOrderAcrossABackwardStep() {
        ClockTransform b = pairWithBackwardStep().inverse();
        long first = C + 996 * MS;
        // b's events in its trace's order: before the step up to 2 ms past `first`, then the
        // clock goes back and reads from `first` + 0.5 ms on
        long[] local = {first - MS, first + 2 * MS, first + MS / 2, first + MS, first + 3 * MS, first + 5 * MS};
        long[] expected = {C - 5 * MS, C - 2 * MS, C + MS / 2, C + MS, C + 3 * MS, C + 5 * MS};
        ReadingsInOrder inOrder = new ReadingsInOrder(b);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < local.length; i++) {
            long mapped = inOrder.applyAsLong(local[i]);
            assertThat(mapped).as("event %d", i).isEqualTo(expected[i]);
            assertThat(mapped).isGreaterThan(previous);
            previous = mapped;
        }
        // by local time alone the second event would be 4 ms late, after the third
        assertThat(b.apply(local[1])).isEqualTo(C + 2 * MS);
        // with no event showing the step, the times read twice map before it; beyond them, after
        ReadingsInOrder quiet = new ReadingsInOrder(b);
        assertThat(quiet.applyAsLong(first - MS)).isEqualTo(C - 5 * MS);
        assertThat(quiet.applyAsLong(first + 3 * MS)).isEqualTo(C - MS);
        assertThat(quiet.applyAsLong(first + 4 * MS)).isEqualTo(C + 4 * MS);
        assertThat(quiet.applyAsLong(first + 3 * MS)).isEqualTo(C + 3 * MS); // past the step now
        // a linear transform is the transform
        ReadingsInOrder linear = new ReadingsInOrder(ClockTransform.linear(C, 7.0, 0));
        assertThat(linear.applyAsLong(C)).isEqualTo(C + 7);
    }

    /**
     * A path through a node whose clock stepped (path composition, issue #13 item 5): node x's
     * clock is continuous and reads y's + 5 ms until y's clock steps back by 4 ms (at x-time C);
     * y's reads the reference's + 5 ms until then. Both pairs see the step: x → y drops by 4 ms at
     * x-time C, y → reference jumps up by 4 ms at y's first local time after it. Composed, x's
     * transform is continuous: the y-times read twice are read on the side of the step that x's
     * segment says, not by their value alone (which put every x-time before the step 4 ms off).
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 200_000, -200_000})
    void composingThroughANodeWhoseClockSteppedBackKeepsEachSideOfTheStep(long disagreement) {
        long k = C + 900_000; // the step, on x's clock (x reads true time)
        ClockTransform xToY = new ClockTransform(List.of(new LinearSegment(null, k, C, 5e6, 1e-6),
                new LinearSegment(k, null, C, 1e6, 1e-6, k - MS, k + 2 * MS)));
        long m = xToY.segments().get(1).apply(k) + disagreement; // y's first time after the step, as its other pair sees it
        ClockTransform yToRef = new ClockTransform(List.of(new LinearSegment(null, m, C, -5e6, -1e-6),
                new LinearSegment(m, null, C, -1e6, -1e-6, m - MS, m + 3 * MS)));
        ClockTransform composed = xToY.then(yToRef);
        SplittableRandom r = new SplittableRandom(disagreement);
        for (int i = 0; i < 2_000; i++) {
            long t = k + r.nextLong(-1_000 * MS, 1_000 * MS);
            // x reads true time: its transform should give (about) 0 away from the two cuts' disagreement
            long window = Math.abs(disagreement) + 1_000;
            if (Math.abs(t - k) > window) {
                assertThat(Math.abs(composed.apply(t) - t)).as("x-time C %+d ns", t - C).isLessThanOrEqualTo(10);
            }
        }
    }
}
