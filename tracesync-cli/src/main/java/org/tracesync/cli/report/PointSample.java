package org.tracesync.cli.report;

import java.util.Random;

/**
 * A bounded, seeded sample of (x, y) points for plotting, with memory independent of how many
 * points are offered: a uniform reservoir of {@code capacity} points plus, per x bin, the point
 * with the smallest y (the one that matters most: nearest a hull or a bound). O(1) per point.
 */
final class PointSample {

    private final long[] xs;
    private final double[] ys;
    private final Random random;
    private final long binStart;
    private final double binWidth;
    private final long[] binX;
    private final double[] binY;
    private long offered;
    private int size;

    /**
     * @param capacity reservoir size
     * @param from     x where the bins start; {@code to} where they end (bins off when from ≥ to)
     * @param bins     number of x bins
     */
    PointSample(int capacity, long from, long to, int bins, long seed) {
        xs = new long[capacity];
        ys = new double[capacity];
        random = new Random(seed);
        binStart = from;
        binWidth = to > from ? (double) (to - from) / bins : 0;
        binX = new long[to > from ? bins : 0];
        binY = new double[binX.length];
        java.util.Arrays.fill(binY, Double.POSITIVE_INFINITY);
    }

    void add(long x, double y) {
        offered++;
        if (size < xs.length) {
            xs[size] = x;
            ys[size++] = y;
        } else {
            long j = (long) (random.nextDouble() * offered);
            if (j < xs.length) {
                xs[(int) j] = x;
                ys[(int) j] = y;
            }
        }
        if (binX.length > 0) {
            int b = (int) Math.floor((x - binStart) / binWidth);
            if (b >= 0 && b < binX.length && y < binY[b]) {
                binY[b] = y;
                binX[b] = x;
            }
        }
    }

    long offered() {
        return offered;
    }

    /** Retained x values (reservoir then bin minima), relative to {@code origin}, scaled by {@code xScale}. */
    double[][] points(long origin, double xScale, double yScale, double ySign) {
        int n = size;
        for (double v : binY) {
            if (v != Double.POSITIVE_INFINITY) {
                n++;
            }
        }
        double[] px = new double[n];
        double[] py = new double[n];
        int k = 0;
        for (int i = 0; i < size; i++, k++) {
            px[k] = (xs[i] - origin) * xScale;
            py[k] = ys[i] * yScale * ySign;
        }
        for (int b = 0; b < binX.length; b++) {
            if (binY[b] != Double.POSITIVE_INFINITY) {
                px[k] = (binX[b] - origin) * xScale;
                py[k++] = binY[b] * yScale * ySign;
            }
        }
        return new double[][] {px, py};
    }
}
