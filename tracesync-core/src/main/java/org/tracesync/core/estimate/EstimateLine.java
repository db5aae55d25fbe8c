package org.tracesync.core.estimate;

/** The chosen line {@code v = c + d·u} in the pair's coordinates (see {@link PairGeometry}). */
public record EstimateLine(double c, double d) {
}
