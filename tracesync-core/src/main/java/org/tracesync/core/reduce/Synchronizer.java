package org.tracesync.core.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.accumulate.PairExchangeLog;
import org.tracesync.core.accumulate.PairMessageLog;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.EstimateLine;
import org.tracesync.core.estimate.FallbackStatistics;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.estimate.PiecewiseEstimator;
import org.tracesync.core.estimate.RegressionEstimator;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MinimumLatency;
import org.tracesync.core.model.NodeInfo;

/**
 * The library entry point: messages in, {@link SyncResult} out (DESIGN §1 stages 3–5).
 * <pre>
 *   Synchronization s = Synchronizer.synchronize(input, Synchronizer.Options.defaults());
 *   SyncResult r = s.result();
 * </pre>
 */
public final class Synchronizer {

    /** Which line each pair's estimate is. */
    public enum Estimator { BISECTOR, REGRESSION }

    /**
     * How pair estimates become one transform per node (DESIGN §4). {@link PathReduction#reduce}
     * is the JDK-only default; the tracesync-global module provides the global linear program.
     */
    @FunctionalInterface
    public interface Reducer {
        SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs, String reference);
    }

    /**
     * @param estimator  bisector (default) or regression
     * @param confidence regression outlier rejection level
     * @param reference  node to use as reference, or null to choose
     * @param reducer    the reduction (default: path composition)
     * @param latency    minimum one-way latency per direction, used by every pair's hulls (null: none)
     * @param maxSlewRate the fastest a slew may change a pair's offset, relative to its rate before
     *                   (dimensionless, 5e-4 for 500 ppm), in the piecewise fit of pairs whose
     *                   hulls cross; {@link PiecewiseEstimator#NO_SLEW_RATE_BOUND} (the default):
     *                   none (see {@link PiecewiseEstimator#estimate(PairAccumulator, PairEstimate, double)})
     */
    public record Options(Estimator estimator, double confidence, String reference, Reducer reducer,
                          MinimumLatency latency, double maxSlewRate) {
        public Options(Estimator estimator, double confidence, String reference, Reducer reducer,
                       MinimumLatency latency) {
            this(estimator, confidence, reference, reducer, latency, PiecewiseEstimator.NO_SLEW_RATE_BOUND);
        }

        public Options(Estimator estimator, double confidence, String reference, Reducer reducer) {
            this(estimator, confidence, reference, reducer, null);
        }

        public Options(Estimator estimator, double confidence, String reference) {
            this(estimator, confidence, reference, PathReduction::reduce, null);
        }

        public static Options defaults() {
            return new Options(Estimator.BISECTOR, 0.95, null);
        }

        public Options withReference(String ref) {
            return new Options(estimator, confidence, ref, reducer, latency, maxSlewRate);
        }

        public Options withEstimator(Estimator e) {
            return new Options(e, confidence, reference, reducer, latency, maxSlewRate);
        }

        public Options withReducer(Reducer r) {
            return new Options(estimator, confidence, reference, r, latency, maxSlewRate);
        }

        public Options withLatency(MinimumLatency m) {
            return new Options(estimator, confidence, reference, reducer, m, maxSlewRate);
        }

        /** With a slew-rate bound (dimensionless, > 0), or {@link PiecewiseEstimator#NO_SLEW_RATE_BOUND}. */
        public Options withMaxSlewRate(double rate) {
            return new Options(estimator, confidence, reference, reducer, latency, rate);
        }
    }

    /** The result plus what it was computed from (pair geometry for reports and evaluation). */
    public record Synchronization(SyncResult result, List<NodeInfo> nodes, PairAccumulators accumulators,
                                  List<PairEstimate> pairs) {
    }

    private Synchronizer() {
    }

    /**
     * The pair with the regression line in place of the hull's, under the one quality rule: a pair
     * is accurate only when its line inverts no message. Every message of the pair is checked
     * against the line (exactly: integer differences, the line's small double); when some are
     * inverted the pair becomes {@code fallback} with that count and the largest inversion, and
     * the note says the line left the feasible region. The hull's bounds are kept: they are true
     * whatever the line (rows are written around it; a negative Δ then shows how far outside it is).
     * The line carries the fit's statistics, its samples taken from {@code samplesFrom} (a
     * {@link RegressionStatistics} constant).
     */
    static PairEstimate withRegressionLine(PairEstimate e, RegressionEstimator.Fit fit, String samplesFrom, long[][] m,
                                           double confidence) {
        if (e.piecewise() != null) {
            // one line cannot follow a clock that is not linear over the trace: the pieces stay
            return e.withNote(e.note() + "; regression not used: one line over the whole trace would invert messages");
        }
        int inverted = 0;
        double worst = 0;
        for (int i = 0; i < m[0].length; i++) { // a → b: b received at or after the line's b-time
            double over = (fit.c() + fit.d() * (double) (m[0][i] - e.x0())) - (double) (m[1][i] - m[0][i] - e.v0());
            if (over > 0) {
                inverted++;
                worst = Math.max(worst, over);
            }
        }
        for (int i = 0; i < m[2].length; i++) { // b → a: b sent at or before the line's b-time of receipt
            double over = (double) (m[2][i] - m[3][i] - e.v0()) - (fit.c() + fit.d() * (double) (m[3][i] - e.x0()));
            if (over > 0) {
                inverted++;
                worst = Math.max(worst, over);
            }
        }
        boolean exchanges = RegressionStatistics.EXCHANGES.equals(samplesFrom);
        String stats = String.format(java.util.Locale.ROOT,
                "regression on %d %s (%d rejected on their round-trip margin at %.3f): residual standard error "
                        + "%.1f ns, drift %.6g ± %.3g (standard error %.3g), offset ± %.1f ns (standard error %.1f ns) at %.3f",
                fit.samples(), exchanges ? "exchanges" : "replies paired with requests (the input has no acknowledgements)",
                fit.rejected(), confidence, fit.residualStandardError(), fit.d(), fit.ciD(), fit.seD(),
                fit.ciC(), fit.seC(), confidence);
        EstimateLine line = new EstimateLine(fit.c(), fit.d(), fit.statistics(samplesFrom));
        if (inverted == 0) {
            return e.withLine(line, FallbackStatistics.NONE, e.note() + "; " + stats);
        }
        // the statistics are the regression line's own inversions, whether or not the hulls cross
        String where = e.hullsCross() ? "the hulls cross (no line keeps every message forward)"
                : "the regression line leaves the feasible region (the hull's bounds are kept, strict)";
        return e.withLine(line, new FallbackStatistics(inverted, worst), String.format(java.util.Locale.ROOT,
                "%s: it inverts %d of %d messages, by up to %.1f ns; %s", where, inverted,
                m[0].length + m[2].length, worst, stats));
    }

    public static Synchronization synchronize(MessageInput input, Options options) throws IOException {
        return synchronize(input.nodes(), accumulate(input), input, options);
    }

    /**
     * Every message of {@code input} in pair accumulators: on as many threads as there are
     * processors when the input can be read in parts ({@link org.tracesync.core.accumulate.SplitReadable}),
     * else in one sequential pass. The same accumulators either way.
     */
    public static PairAccumulators accumulate(MessageInput input) throws IOException {
        if (input instanceof org.tracesync.core.accumulate.SplitReadable split) {
            return split.accumulate(Runtime.getRuntime().availableProcessors());
        }
        PairAccumulators acc = new PairAccumulators(input.nodes().size());
        input.readMessages(acc);
        return acc;
    }

    /**
     * Estimation and reduction from accumulated pairs. {@code input} is read a second time only
     * for the regression estimator.
     */
    public static Synchronization synchronize(List<NodeInfo> nodes, PairAccumulators acc, MessageInput input,
                                              Options options) throws IOException {
        List<PairEstimate> estimates = new ArrayList<>();
        MinimumLatency tau = options.latency();
        List<String> tauWarnings = new ArrayList<>();
        List<String> slewWarnings = new ArrayList<>();
        if (tau != null && !tau.isZero() && tau.assumption() != null) {
            tauWarnings.add(tau.assumption());
        }
        double slewBound = options.maxSlewRate();
        for (PairAccumulator p : acc.nonEmptyPairs()) {
            PairEstimate e = tau == null ? ConvexHullEstimator.estimate(p, 0, 0, "", slewBound)
                    : ConvexHullEstimator.estimate(p, tau.tau(p.a(), p.b()), tau.tau(p.b(), p.a()), tau.source(), slewBound);
            if (e.note().startsWith("tau ignored")) {
                tauWarnings.add("pair " + nodes.get(p.a()).name() + "/" + nodes.get(p.b()).name() + ": " + e.note());
            }
            if (e.piecewise() != null && e.piecewise().slewsBeyondBound() > 0) {
                slewWarnings.add(String.format(java.util.Locale.ROOT, "pair %s/%s: %d slew%s faster than the slew-rate"
                        + " bound of %.1f ppm kept, where no slower slew fits the messages (the fit without the bound"
                        + " is used there; the pair's note says where)", nodes.get(p.a()).name(), nodes.get(p.b()).name(),
                        e.piecewise().slewsBeyondBound(), e.piecewise().slewsBeyondBound() == 1 ? "" : "s", slewBound * 1e6));
            }
            estimates.add(e);
        }
        if (options.estimator() == Estimator.REGRESSION) {
            PairMessageLog log = new PairMessageLog(nodes.size());
            PairExchangeLog exchanges = new PairExchangeLog(nodes.size());
            boolean known = input.readMessages(log, exchanges);
            for (int k = 0; k < estimates.size(); k++) {
                PairEstimate e = estimates.get(k);
                if (!e.hasEstimate()) {
                    continue;
                }
                long[][] m = log.messages(e.a(), e.b());
                double[][] samples;
                boolean lookedFor = known && input.exchangesLookedFor(e.a(), e.b());
                if (lookedFor) {
                    long[][] x = exchanges.exchanges(e.a(), e.b());
                    samples = RegressionEstimator.samples(x[0], x[1], x[2], x[3], e.x0(), e.v0());
                } else {
                    samples = RegressionEstimator.pairedSamples(m[0], m[1], m[2], m[3], e.x0(), e.v0());
                }
                if (samples[0].length >= 2) {
                    RegressionEstimator.Fit fit = RegressionEstimator.fit(samples[0], samples[1], samples[2],
                            options.confidence());
                    estimates.set(k, withRegressionLine(e, fit, lookedFor ? RegressionStatistics.EXCHANGES
                            : RegressionStatistics.PAIRED_MESSAGES, m, options.confidence()));
                } else if (e.piecewise() == null) {
                    estimates.set(k, e.withNote(e.note() + "; regression not used: " + samples[0].length
                            + (lookedFor ? " exchanges (a data message and its acknowledgement)"
                                    : " replies paired with requests") + " between them, 2 needed; the line is the hull's"));
                }
            }
        }
        SyncResult result = options.reducer().reduce(nodes, acc, estimates, options.reference());
        if (slewBound != PiecewiseEstimator.NO_SLEW_RATE_BOUND) {
            List<String> warnings = new ArrayList<>(slewWarnings);
            warnings.addAll(result.warnings());
            java.util.Map<String, Object> stats = new java.util.LinkedHashMap<>(result.stats());
            stats.put("max_slew_rate_ppm", slewBound * 1e6);
            stats.put("slews_beyond_bound", estimates.stream()
                    .mapToInt(e -> e.piecewise() == null ? 0 : e.piecewise().slewsBeyondBound()).sum());
            result = new SyncResult(result.reference(), result.nodes(), result.pairs(), stats, warnings);
        }
        if (!tauWarnings.isEmpty()) {
            List<String> warnings = new ArrayList<>(tauWarnings);
            warnings.addAll(result.warnings());
            java.util.Map<String, Object> stats = new java.util.LinkedHashMap<>(result.stats());
            stats.put("min_latency", tau.source());
            stats.put("min_latency_ignored_pairs", tauWarnings.stream().filter(w -> w.contains("tau ignored")).count());
            result = new SyncResult(result.reference(), result.nodes(), result.pairs(), stats, warnings);
        } else if (tau != null && !tau.isZero()) {
            java.util.Map<String, Object> stats = new java.util.LinkedHashMap<>(result.stats());
            stats.put("min_latency", tau.source());
            stats.put("min_latency_ignored_pairs", 0);
            result = new SyncResult(result.reference(), result.nodes(), result.pairs(), stats, result.warnings());
        }
        return new Synchronization(result, nodes, acc, estimates);
    }
}
