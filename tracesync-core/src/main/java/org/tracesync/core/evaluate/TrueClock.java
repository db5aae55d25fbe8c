package org.tracesync.core.evaluate;

/**
 * A node's true clock model (the form of a simulation's or testbed's truth file):
 * {@code local(t) = t + alpha + beta·(t − T0) + delta·(t − T0)²}, t being the true time (ns).
 */
public record TrueClock(String name, double alpha, double beta, double delta) {

    /** local(t) − T0 for a true time {@code u = t − T0} (ns, relative: doubles stay exact to far below 1 ns). */
    public double localRelative(double u) {
        return u + alpha + beta * u + delta * u * u;
    }

    /**
     * The true time (relative to T0) at which this clock reads {@code x = local − T0}: Newton's
     * method from the linear solution (quadratic convergence; the model must be monotone over the
     * data, 1 + beta + 2·delta·u &gt; 0), stopping below 1e-6 ns or after 100 steps.
     */
    public double trueRelative(double x) {
        double u = (x - alpha) / (1 + beta);
        for (int i = 0; i < 100 && delta != 0; i++) {
            double f = localRelative(u) - x;
            if (Math.abs(f) < 1e-6) {
                break;
            }
            u -= f / (1 + beta + 2 * delta * u);
        }
        return u;
    }
}
