package org.tracesync.core.estimate;

/**
 * The chosen line {@code v = c + d·u} in the pair's coordinates (see {@link PairGeometry}), and,
 * when it is a regression line, its statistics (null otherwise).
 */
public record EstimateLine(double c, double d, RegressionStatistics regression) {

    /** A line that is not a regression (bisector, minimax, the feasible line nearest zero drift). */
    public EstimateLine(double c, double d) {
        this(c, d, null);
    }
}
