package org.tracesync.core.estimate;

/**
 * What a regression line (Clément/Dagenais, {@link RegressionEstimator}) reports beside its offset
 * and drift: where its samples came from, how many were used and rejected, the residual standard
 * error, and the standard errors of drift and offset (eq. 7–8) with the half-widths of their
 * confidence intervals at {@code confidence}. These are statistical, not strict: the strict bounds
 * remain the hull's.
 *
 * @param samplesFrom           {@link #EXCHANGES} (the matcher's data + acknowledgement exchanges) or
 *                              {@link #PAIRED_MESSAGES} (inputs without acknowledgements: each reply
 *                              with the latest request)
 * @param samples               samples fitted (after rejection)
 * @param rejected              samples dropped by the one rejection pass on the round-trip margin
 * @param confidence            the level of the rejection and of the intervals, in (0, 1)
 * @param residualStandardError ns (0 with 2 samples)
 * @param driftStandardError    dimensionless (NaN with fewer than 3 samples)
 * @param driftInterval         half-width of the drift's confidence interval (NaN likewise)
 * @param offsetStandardError   ns, of the offset at the pair's origin (NaN likewise)
 * @param offsetInterval        ns, half-width of the offset's confidence interval (NaN likewise)
 */
public record RegressionStatistics(String samplesFrom, int samples, int rejected, double confidence,
                                   double residualStandardError, double driftStandardError, double driftInterval,
                                   double offsetStandardError, double offsetInterval) {

    public static final String EXCHANGES = "exchanges";
    public static final String PAIRED_MESSAGES = "paired messages";
}
