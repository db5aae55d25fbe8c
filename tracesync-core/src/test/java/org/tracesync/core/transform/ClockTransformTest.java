package org.tracesync.core.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ClockTransformTest {

    private static final long T = 1_700_000_000_000_000_000L;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void inverseAndCompositionAreExactAtEpochTimes(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 200; i++) {
            ClockTransform f = ClockTransform.linear(T + r.nextLong(1_000_000_000_000L), r.nextDouble(-3e9, 3e9),
                    r.nextDouble(-1e-4, 1e-4));
            ClockTransform g = ClockTransform.linear(T + r.nextLong(1_000_000_000_000L), r.nextDouble(-3e9, 3e9),
                    r.nextDouble(-1e-4, 1e-4));
            long t = T + r.nextLong(2_000_000_000_000L);
            // f then f⁻¹ comes back to t (within rounding of the ns result)
            assertThat(f.inverse().apply(f.apply(t)) - t).isBetween(-1L, 1L);
            // (g ∘ f)(t) = g(f(t)) in exact terms: corrections add
            double viaCorr = f.correction(t) + g.correction(t + Math.round(f.correction(t)));
            assertThat(f.then(g).correction(t)).isCloseTo(viaCorr, within(1.0));
        }
    }

    @Test
    void segmentsApplyOnTheirHalfOpenRangesAndTheEndsExtend() {
        ClockTransform p = new ClockTransform(List.of(new LinearSegment(null, T + 10, T, 5, 0),
                new LinearSegment(T + 10, null, T + 10, 7, 0.5)));
        assertThat(p.isLinear()).isFalse();
        assertThat(p.correction(T + 9)).isEqualTo(5.0);
        assertThat(p.correction(T + 10)).isEqualTo(7.0);
        assertThat(p.correction(T + 20)).isEqualTo(12.0);
        assertThat(p.apply(T - 1000)).isEqualTo(T - 995);
    }
}
