package org.tracesync.cli.report;

/**
 * Exact geometry of one pair for Figure 5, in rebased coordinates of the pair (u = x − origin in
 * ns on a's clock, v = y − x in ns): the vertices of the lower half hull of the a → b points and
 * of the upper half hull of the b → a points, sorted by u; and the accuracy envelope as
 * (u, lower v, upper v) rows.
 */
public record PairGeometry(long origin, long[] lowerHullU, long[] lowerHullV, long[] upperHullU, long[] upperHullV,
                           long[] envelopeU, double[] envelopeLow, double[] envelopeHigh) {
}
