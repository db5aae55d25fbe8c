package org.tracesync.core.latency;

import java.util.Arrays;

/**
 * count, min, mean, p50, p90, p99 and max of a group of latencies, each with its error bar.
 *
 * <p>The bar of a statistic follows from the instances' bars: every order statistic and the mean
 * are monotone in each instance's latency, so the true p-th percentile lies between the p-th
 * percentile of the instances' lower ends and that of their upper ends (the same for min, max and
 * the mean). Percentiles are nearest-rank (the ⌈p·n⌉-th smallest). Exact: sums in long.
 * O(n log n) for n instances.
 *
 * @param count instances measured
 * @param bounded true when every instance has a bar (else the figures' minus and plus are null)
 */
public record LatencyStatistics(long count, boolean bounded, Figure min, Figure mean, Figure p50, Figure p90,
                                Figure p99, Figure max) {

    /** A value (ns) with its error bar: the truth lies in [value − minus, value + plus]; null when unknown. */
    public record Figure(long value, Long minus, Long plus) {
    }

    /**
     * @param latency ns, one per instance
     * @param minus   bars (ignored unless {@code bounded})
     * @param plus    bars (ignored unless {@code bounded})
     * @param n       how many of the arrays' entries to use
     */
    public static LatencyStatistics of(long[] latency, long[] minus, long[] plus, int n, boolean bounded) {
        if (n == 0) {
            return new LatencyStatistics(0, bounded, null, null, null, null, null, null);
        }
        long[] v = Arrays.copyOf(latency, n);
        long[] lo = new long[n];
        long[] hi = new long[n];
        long sum = 0;
        long sumLo = 0;
        long sumHi = 0;
        for (int i = 0; i < n; i++) {
            lo[i] = bounded ? latency[i] - minus[i] : latency[i];
            hi[i] = bounded ? latency[i] + plus[i] : latency[i];
            sum += latency[i];
            sumLo += lo[i];
            sumHi += hi[i];
        }
        Arrays.sort(v);
        Arrays.sort(lo);
        Arrays.sort(hi);
        long mean = Math.round((double) sum / n);
        Figure meanF = bounded
                ? new Figure(mean, Math.max(0, mean - (long) Math.floor((double) sumLo / n)),
                        Math.max(0, (long) Math.ceil((double) sumHi / n) - mean))
                : new Figure(mean, null, null);
        return new LatencyStatistics(n, bounded, at(v, lo, hi, 0, bounded), meanF,
                rank(v, lo, hi, 0.50, bounded), rank(v, lo, hi, 0.90, bounded), rank(v, lo, hi, 0.99, bounded),
                at(v, lo, hi, n - 1, bounded));
    }

    private static Figure rank(long[] v, long[] lo, long[] hi, double p, boolean bounded) {
        int k = (int) Math.ceil(p * v.length) - 1;
        return at(v, lo, hi, Math.max(0, Math.min(v.length - 1, k)), bounded);
    }

    private static Figure at(long[] v, long[] lo, long[] hi, int k, boolean bounded) {
        return bounded ? new Figure(v[k], Math.max(0, v[k] - lo[k]), Math.max(0, hi[k] - v[k])) : new Figure(v[k], null, null);
    }
}
