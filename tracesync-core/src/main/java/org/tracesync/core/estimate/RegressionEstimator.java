package org.tracesync.core.estimate;

import java.util.Arrays;

/**
 * Linear regression on exchange offsets (Clément/Dagenais 2009), for comparison with the
 * convex-hull estimate and for users who want it (`--estimator regression`).
 *
 * <p>Each exchange — a b → a message and the latest a → b message that b received before sending
 * it — gives an NTP-style offset sample {@code θ = ((y_r − x_s) + (y_s − x_r)) / 2} at a-time
 * {@code (x_s + x_r) / 2}: the offset plus half the latency asymmetry. Least squares fits
 * {@code θ = c + d·u}; the residual standard error is reported; samples whose residual exceeds
 * z·s (z the two-sided normal quantile of the confidence level) are rejected and the fit
 * repeated until none is.
 *
 * <p>Unlike the hull estimate this gives no strict guarantee: its line may leave the feasible
 * region (the result's bounds stay the hull's, so its Δ± may then be negative — shown, not
 * hidden). Cost: O(n log n) time and O(n) memory in the messages of the pair.
 */
public final class RegressionEstimator {

    /** Result of a fit, in the pair's rebased coordinates. */
    public record Fit(double c, double d, double residualStandardError, int samples, int rejected) {
    }

    private RegressionEstimator() {
    }

    /**
     * Exchange samples from the messages of one pair (all coordinates already rebased: u = x − X0,
     * values in v = y − x − V0 units), returned as {u[], theta[]}.
     *
     * @param abSend  a-times x_s of a → b messages, abRecv their b-times y_r
     * @param baSend  b-times y_s of b → a messages, baRecv their a-times x_r
     */
    public static double[][] exchangeSamples(long[] abSend, long[] abRecv, long[] baSend, long[] baRecv,
                                             long x0, long v0) {
        int n = abSend.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (p, q) -> Long.compare(abRecv[p], abRecv[q]));
        long[] sortedRecv = new long[n];
        for (int i = 0; i < n; i++) {
            sortedRecv[i] = abRecv[order[i]];
        }
        double[] us = new double[baSend.length];
        double[] th = new double[baSend.length];
        int m = 0;
        for (int k = 0; k < baSend.length; k++) {
            long ys = baSend[k];
            int pos = Arrays.binarySearch(sortedRecv, ys);
            int idx = pos >= 0 ? pos : -pos - 2;
            while (pos >= 0 && idx + 1 < n && sortedRecv[idx + 1] == ys) {
                idx++;
            }
            if (idx < 0) {
                continue; // no request received before this reply was sent
            }
            int req = order[idx];
            long xs = abSend[req];
            long yr = abRecv[req];
            long xr = baRecv[k];
            double theta = 0.5 * ((double) (yr - xs - v0) + (double) (ys - xr - v0));
            double u = 0.5 * ((double) (xs - x0) + (double) (xr - x0));
            us[m] = u;
            th[m] = theta;
            m++;
        }
        return new double[][] {Arrays.copyOf(us, m), Arrays.copyOf(th, m)};
    }

    /** Least squares with iterative outlier rejection at {@code confidence} (e.g. 0.95). */
    public static Fit fit(double[] u, double[] theta, double confidence) {
        int n = u.length;
        if (n < 2) {
            throw new IllegalArgumentException("regression needs at least 2 exchanges, found " + n);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
        }
        double z = normalQuantile(1 - (1 - confidence) / 2);
        boolean[] used = new boolean[n];
        Arrays.fill(used, true);
        int count = n;
        double c = 0;
        double d = 0;
        double s = 0;
        while (true) {
            double su = 0;
            double st = 0;
            for (int i = 0; i < n; i++) {
                if (used[i]) {
                    su += u[i];
                    st += theta[i];
                }
            }
            double mu = su / count;
            double mt = st / count;
            double suu = 0;
            double sut = 0;
            for (int i = 0; i < n; i++) {
                if (used[i]) {
                    suu += (u[i] - mu) * (u[i] - mu);
                    sut += (u[i] - mu) * (theta[i] - mt);
                }
            }
            d = suu == 0 ? 0 : sut / suu;
            c = mt - d * mu;
            double ssr = 0;
            for (int i = 0; i < n; i++) {
                if (used[i]) {
                    double r = theta[i] - (c + d * u[i]);
                    ssr += r * r;
                }
            }
            s = count > 2 ? Math.sqrt(ssr / (count - 2)) : 0;
            if (count <= 3 || s == 0) {
                break;
            }
            int removed = 0;
            for (int i = 0; i < n; i++) {
                if (used[i] && Math.abs(theta[i] - (c + d * u[i])) > z * s) {
                    used[i] = false;
                    removed++;
                }
            }
            if (removed == 0 || count - removed < 3) {
                if (removed > 0) {
                    // would leave too few samples: keep the previous fit
                    for (int i = 0; i < n; i++) {
                        used[i] = true;
                    }
                }
                break;
            }
            count -= removed;
        }
        return new Fit(c, d, s, count, n - count);
    }

    /** Inverse of the standard normal CDF (Acklam's rational approximation, |error| &lt; 1.2e-9). */
    static double normalQuantile(double p) {
        double[] a = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
        double[] b = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
            6.680131188771972e+01, -1.328068155288572e+01};
        double[] cc = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
        double[] dd = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
            3.754408661907416e+00};
        double low = 0.02425;
        if (p < low) {
            double q = Math.sqrt(-2 * Math.log(p));
            return (((((cc[0] * q + cc[1]) * q + cc[2]) * q + cc[3]) * q + cc[4]) * q + cc[5])
                    / ((((dd[0] * q + dd[1]) * q + dd[2]) * q + dd[3]) * q + 1);
        }
        if (p > 1 - low) {
            return -normalQuantile(1 - p);
        }
        double q = p - 0.5;
        double r = q * q;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
}
