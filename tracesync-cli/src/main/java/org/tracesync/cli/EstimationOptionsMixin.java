package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.tracesync.core.model.MinimumLatency;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.evaluate.RttFile;
import org.tracesync.global.GlobalReduction;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How the matched messages become transforms: reference, estimator, reduction, minimum latency —
 * the options of {@code tracesync sync} that {@code tracesync-spark sync} shares, with one meaning.
 */
public final class EstimationOptionsMixin {

    /** Pair estimators. */
    public enum EstimatorChoice { bisector, regression }

    /** Reductions to one reference. */
    public enum ReductionChoice { global, path }

    @Option(names = "--reference", paramLabel = "NODE", description = "Use this node as the reference (default: the most central node of each group).")
    String reference;

    @Option(names = "--estimator", paramLabel = "NAME", defaultValue = "bisector",
            description = "Pair estimate: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    EstimatorChoice estimator;

    @Option(names = "--confidence", defaultValue = "0.95", paramLabel = "P",
            description = "Regression outlier rejection level (default: ${DEFAULT-VALUE}).")
    double confidence;

    @Option(names = "--reduction", paramLabel = "NAME",
            description = {"Reduction to one reference: ${COMPLETION-CANDIDATES}. Default: global for every group with redundant links"
                    + " (more pairs than nodes - 1), path composition otherwise; path when the global program is infeasible."})
    ReductionChoice reduction;

    @Option(names = "--min-latency", paramLabel = "TIME", converter = DurationConverter.class,
            description = {"Strict minimum one-way latency of every message (e.g. 5us), when you know one: every pair's"
                    + " hulls, path composition and the global program use it, which narrows the bounds. A pair whose"
                    + " messages are faster (its hulls cross with it) is estimated without it, with a warning. Default: 0."})
    Long minLatency;

    @Option(names = "--rtt", paramLabel = "FILE|exchanges",
            description = {"Minimum latency per pair from minimum round trips: an RTT file (lines 'addr addr rtt_ms'),"
                    + " or 'exchanges' for the TCP exchanges (data + ack) found in the captures. Each direction gets"
                    + " half its pair's round trip (assumes symmetric minimum latencies); checked like --min-latency."})
    String rtt;

    @Option(names = "--max-slew-rate", paramLabel = "PPM", converter = PpmConverter.class,
            description = {"Fastest rate, in ppm, at which a slew changes one clock's offset to another's (ntpd: 500),"
                    + " when you know how the clocks are disciplined: a piecewise fit (clocks not linear over the trace)"
                    + " then takes no slew faster than that from the rate before it, and a jump no slower slew explains"
                    + " for a step. Where no slower slew fits the messages, that place is fitted as without the option,"
                    + " with a warning. At most 1000. Default: none (slews of up to 1000 ppm)."})
    Double maxSlewRatePpm;

    public String reference() {
        return reference;
    }

    public EstimatorChoice estimator() {
        return estimator;
    }

    public ReductionChoice reduction() {
        return reduction;
    }

    public Long minLatency() {
        return minLatency;
    }

    public String rtt() {
        return rtt;
    }

    /** --max-slew-rate in ppm, null when not given. */
    public Double maxSlewRatePpm() {
        return maxSlewRatePpm;
    }

    /** Whether the minimum latency comes from the TCP exchanges the matching finds. */
    public boolean rttFromExchanges() {
        return "exchanges".equals(rtt);
    }

    /** The usage errors these options can make by themselves, thrown as {@code cl}'s. */
    public void check(CommandLine cl) {
        String error = usageError();
        if (error != null) {
            throw new CommandLine.ParameterException(cl, error);
        }
    }

    /** The usage error these options can make by themselves, null when they make none. */
    public String usageError() {
        if (minLatency != null && minLatency < 0) {
            return "--min-latency must be >= 0";
        }
        if (minLatency != null && rtt != null) {
            return "give either --rtt or --min-latency, not both";
        }
        if (maxSlewRatePpm != null && !(maxSlewRatePpm > 0 && maxSlewRatePpm <= 1000)) {
            return "--max-slew-rate must be above 0 and at most 1000 ppm (a faster change is taken for a step), not "
                    + new java.math.BigDecimal(Double.toString(maxSlewRatePpm)).stripTrailingZeros().toPlainString();
        }
        return null;
    }

    /**
     * Estimator, confidence, reference, reduction and slew-rate bound, plus the minimum latency when it is known
     * before the messages are read (--min-latency, an RTT file); {@code --rtt exchanges} is the
     * caller's, once the exchanges are found. τmin goes into every pair's hulls, so the global
     * program adds none of its own.
     */
    public Synchronizer.Options toOptions(List<NodeInfo> nodes) throws IOException {
        Synchronizer.Options options = new Synchronizer.Options(
                estimator == EstimatorChoice.regression ? Synchronizer.Estimator.REGRESSION : Synchronizer.Estimator.BISECTOR,
                confidence, reference, reduction == ReductionChoice.path ? PathReduction::reduce
                        : GlobalReduction.reducer(reduction == ReductionChoice.global
                                ? GlobalReduction.Mode.EVERY_GROUP : GlobalReduction.Mode.WHERE_REDUNDANT, 0.0));
        if (maxSlewRatePpm != null) {
            options = options.withMaxSlewRate(maxSlewRatePpm * 1e-6);
        }
        if (minLatency != null) {
            return options.withLatency(MinimumLatency.uniform(nodes.size(), minLatency, "--min-latency " + minLatency + " ns"));
        }
        if (rtt != null && !rttFromExchanges()) {
            return options.withLatency(RttFile.read(Path.of(rtt), nodes).asMinimumLatency("half the round trips of " + rtt));
        }
        return options;
    }
}
