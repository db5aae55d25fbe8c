package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The notes' numbers formatted in {@link ConvexHullEstimator#NOTES} (Locale.US, which spares the
 * formatter the JDK's locale data) are the text Locale.ROOT gave, for every conversion the
 * estimators' notes use, over seeded doubles of every magnitude and the special values.
 */
class NotesLocaleTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void notesReadAsInTheRootLocale(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        String[] formats = {"%.1f", "%.0f", "%+.0f", "%d pieces, %.0f ms, %s"};
        double[] special = {0.0, -0.0, 0.05, -0.05, 0.5, -0.5, 1.5, 2.5, 0.25, 1e-9, 123456789.95, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int i = 0; i < 20_000; i++) {
            double v = i < special.length ? special[i]
                    : r.nextBoolean() ? (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-12, 20))
                    : Math.round(r.nextDouble() * 2_000_000) / 20.0 * (r.nextBoolean() ? 1 : -1); // ties at .05
            for (String f : formats) {
                Object[] args = f.startsWith("%d") ? new Object[] {r.nextLong(), v, "x"} : new Object[] {v};
                assertThat(String.format(ConvexHullEstimator.NOTES, f, args))
                        .as("%s of %s", f, v).isEqualTo(String.format(Locale.ROOT, f, args));
            }
        }
    }
}
