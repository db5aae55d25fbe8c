package org.tracesync.core.simulate;

/**
 * A simulated (or measured) clock: at true time t the node reads
 * {@code local(t) = t + alpha + beta·(t − t0) + delta·(t − t0)²} (ns), the form of the truth files
 * (../shared/data/pcap/three-hosts/truth.json).
 *
 * <p>Exactness: {@code t − t0} and {@code alpha} are exact longs; only the small correction
 * {@code beta·d + delta·d²} is a double (|d| below hours keeps it far under 2^53 ns, so its
 * rounding error is well below 1 ns), rounded to the nearest ns. Never a double on an absolute
 * epoch time.
 *
 * @param name  node name
 * @param t0    origin of the drift terms, true time (ns)
 * @param alpha offset at t0 (ns)
 * @param beta  drift (dimensionless: local rate − 1)
 * @param delta quadratic term (1/ns)
 */
public record ClockModel(String name, long t0, long alpha, double beta, double delta) {

    public ClockModel {
        if (!(beta > -0.5 && beta < 0.5) || !Double.isFinite(delta)) {
            throw new IllegalArgumentException("clock " + name + ": beta must be in (-0.5, 0.5), delta finite");
        }
    }

    /** A perfect clock (reads true time). */
    public static ClockModel perfect(String name, long t0) {
        return new ClockModel(name, t0, 0, 0.0, 0.0);
    }

    /** Local reading at true time {@code t}, rounded to the nearest ns. O(1). */
    public long local(long t) {
        long d = t - t0;
        double dd = d;
        return t + alpha + Math.round(beta * dd + delta * dd * dd);
    }

    /** {@code local(t) − t} in ns, as a double (small). */
    public double offsetAt(long t) {
        double dd = t - t0;
        return alpha + beta * dd + delta * dd * dd;
    }

    /** True when the local clock is strictly increasing over true times [from, to]. */
    public boolean increasingOver(long from, long to) {
        // derivative 1 + beta + 2·delta·d is linear in d: check both ends
        return 1 + beta + 2 * delta * (double) (from - t0) > 0 && 1 + beta + 2 * delta * (double) (to - t0) > 0;
    }

    /**
     * The true time at which this clock reads {@code local} (nearest ns): exact inverse for a linear
     * clock ({@code d = w / (1 + beta)} with the long {@code w = local − alpha − t0}), Newton
     * iterations from the linear solution for a quadratic one (converges in 2–4 steps for the
     * small delta real clocks have). Inverse of {@link #local} up to its rounding: the result t
     * satisfies |local(t) − local| ≤ 1 for an increasing clock.
     */
    public long trueTime(long local) {
        long w = local - alpha - t0;
        double wd = w;
        double d = wd / (1 + beta);
        if (delta != 0.0) {
            for (int i = 0; i < 50; i++) {
                double f = d * (1 + beta) + delta * d * d - wd;
                double fp = 1 + beta + 2 * delta * d;
                double step = f / fp;
                d -= step;
                if (Math.abs(step) < 1e-3) {
                    break;
                }
            }
        }
        return t0 + Math.round(d);
    }
}
