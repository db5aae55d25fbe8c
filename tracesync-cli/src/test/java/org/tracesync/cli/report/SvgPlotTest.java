package org.tracesync.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Issue #12 item 14: tick labels are distinct and say their value, whatever the range. */
class SvgPlotTest {

    @Test
    void aNarrowRangeFarFromZeroIsLabelledRelativeToABase() {
        SvgPlot.Axis a = SvgPlot.axis(-1_000_002.5, -999_997.5);
        assertThat(a.note()).isEqualTo(", ticks relative to -1000000");
        assertThat(a.labels()).containsExactly("-2", "-1", "0", "+1", "+2");
        assertThat(new SvgPlot(400, 300, "t", "x", "v (µs)").yRange(-1_000_002.5, -999_997.5)
                .line(new double[] {0, 1}, new double[] {-1_000_001, -999_999}, "#000", "l", null).render())
                .contains("v (µs), ticks relative to -1000000").doesNotContain("-1.00e+06");
    }

    @Test
    void ordinaryRangesKeepPlainLabels() {
        assertThat(SvgPlot.axis(0, 20).labels()).containsExactly("0", "5", "10", "15", "20");
        assertThat(SvgPlot.axis(0, 20).note()).isEmpty();
        assertThat(SvgPlot.axis(-0.03, 0.03).labels()).containsExactly("-0.03", "-0.02", "-0.01", "0.00", "0.01",
                "0.02", "0.03");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void labelsAreDistinctAndNumeric(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 500; i++) {
            double center = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-3, 13));
            double span = Math.pow(10, r.nextInt(-6, 9)) * (0.5 + r.nextDouble());
            double min = center - span / 2;
            double max = center + span / 2;
            if (!(max > min) || span < Math.abs(center) * 1e-9) {
                continue; // beyond what a double plotted in µs can resolve
            }
            SvgPlot.Axis a = SvgPlot.axis(min, max);
            String what = "range [" + min + ", " + max + "] labels " + Arrays.toString(a.labels());
            assertThat(a.labels().length).as(what).isBetween(2, 50);
            assertThat(Arrays.stream(a.labels()).distinct().count()).as(what).isEqualTo(a.labels().length);
            for (String l : a.labels()) {
                Double.parseDouble(l);
            }
        }
    }
}
