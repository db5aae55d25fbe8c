package org.tracesync.core.estimate;

/**
 * What a pair's messages left after accumulation (DESIGN §3): counts, the rebasing origin and the
 * two half hulls, in the pair's coordinates u = x − x0, v = y − x − v0 (x on a's clock, y on
 * b's), with a &lt; b.
 *
 * @param minX, maxX     first and last a-time of the pair's messages (its span on a's clock)
 * @param pu, pv         lower hull of the a → b points (u increasing)
 * @param qu, qv         upper hull of the b → a points (u increasing)
 */
public record PairGeometry(int a, int b, long countAToB, long countBToA, long x0, long v0, long minX, long maxX,
                           long[] pu, long[] pv, long[] qu, long[] qv) {
}
