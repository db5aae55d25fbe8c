package org.tracesync.core.transform;

/**
 * One piece of a clock transform (DESIGN §2, §7): on local times t in [from, to) (null = open),
 * {@code ref(t) = t + offset + drift·(t − origin)}.
 *
 * <p>{@code origin} is an int64 inside the data, so that {@code t − origin} is an exact long and
 * small; never a slope and an intercept at t = 0 (a double there has a 256 ns step on epoch
 * timestamps).
 */
public record LinearSegment(Long from, Long to, long origin, double offset, double drift) {

    /** {@code ref(t) − t}, in ns, as a double (small: offsets and drift corrections). */
    public double correction(long t) {
        return offset + drift * (double) (t - origin);
    }

    /** True when t lies in [from, to). */
    public boolean contains(long t) {
        return (from == null || t >= from) && (to == null || t < to);
    }
}
