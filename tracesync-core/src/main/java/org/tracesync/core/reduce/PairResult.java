package org.tracesync.core.reduce;

import java.util.List;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.model.Quality;

/**
 * Summary of one unordered node pair (DESIGN §7 "pairs").
 *
 * @param a, b             node names (a = abscissa node of the pair geometry)
 * @param quality          the pair's quality class
 * @param messagesAToB     messages a → b
 * @param messagesBToA     messages b → a
 * @param hullAToB         points on the lower half hull of the a → b messages
 * @param hullBToA         points on the upper half hull of the b → a messages
 * @param driftMin         minimum feasible drift (NaN when unbounded or not applicable)
 * @param driftMax         maximum feasible drift (NaN when unbounded or not applicable)
 * @param offset           estimated offset of b relative to a at {@code origin}, ns (NaN if none)
 * @param drift            estimated drift of b relative to a (NaN if none)
 * @param origin           origin of the pair's estimate, on a's clock (ns)
 * @param meanAccuracy     mean of Δ+ + Δ− over the pair's span, ns (NaN when unknown)
 * @param violations       fallback only: hull points the minimax line violates
 * @param maxViolation     fallback only: largest violation, ns (0 otherwise)
 * @param note             why, in a sentence
 * @param pieces           number of pieces of the pair's transform (1 unless piecewise)
 * @param steps            clock steps found between the two clocks (piecewise only)
 * @param regression       the regression line's statistics (--estimator regression), else null
 */
public record PairResult(String a, String b, Quality quality, long messagesAToB, long messagesBToA,
                         int hullAToB, int hullBToA, double driftMin, double driftMax,
                         double offset, double drift, long origin, double meanAccuracy,
                         int violations, double maxViolation, String note, int pieces, List<ClockStep> steps,
                         RegressionStatistics regression) {

    public PairResult {
        steps = List.copyOf(steps);
    }

    /** A pair whose line is not a regression. */
    public PairResult(String a, String b, Quality quality, long messagesAToB, long messagesBToA,
                      int hullAToB, int hullBToA, double driftMin, double driftMax,
                      double offset, double drift, long origin, double meanAccuracy,
                      int violations, double maxViolation, String note, int pieces, List<ClockStep> steps) {
        this(a, b, quality, messagesAToB, messagesBToA, hullAToB, hullBToA, driftMin, driftMax, offset, drift, origin,
                meanAccuracy, violations, maxViolation, note, pieces, steps, null);
    }

    /** A pair with one segment and no steps. */
    public PairResult(String a, String b, Quality quality, long messagesAToB, long messagesBToA,
                      int hullAToB, int hullBToA, double driftMin, double driftMax,
                      double offset, double drift, long origin, double meanAccuracy,
                      int violations, double maxViolation, String note) {
        this(a, b, quality, messagesAToB, messagesBToA, hullAToB, hullBToA, driftMin, driftMax, offset, drift, origin,
                meanAccuracy, violations, maxViolation, note, 1, List.of());
    }
}
