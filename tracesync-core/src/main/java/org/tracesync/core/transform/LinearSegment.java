package org.tracesync.core.transform;

/**
 * One piece of a clock transform (DESIGN §2, §7): on local times t in [from, to) (null = open),
 * {@code ref(t) = t + offset + drift·(t − origin)}.
 *
 * <p>{@code origin} is an int64 inside the data, so that {@code t − origin} is an exact long and
 * small; never a slope and an intercept at t = 0 (a double there has a 256 ns step on epoch
 * timestamps).
 *
 * <p>A segment that starts at a clock step may carry the step's <em>either-side</em> local times
 * [{@code eitherFrom}, {@code eitherTo}) (null when unknown or not a step): where the messages
 * cannot tell whether an event came before the step (then the previous segment's line maps it)
 * or after it (this segment's line). Only the event's position tells; {@code from} is where the
 * transform is cut for a reader that knows nothing more ({@link ClockTransform#stepAround}).
 */
public record LinearSegment(Long from, Long to, long origin, double offset, double drift, Long eitherFrom,
                            Long eitherTo) {

    public LinearSegment {
        if ((eitherFrom == null) != (eitherTo == null) || (eitherFrom != null && eitherFrom >= eitherTo)) {
            eitherFrom = null; // an empty or half-given range says nothing
            eitherTo = null;
        }
    }

    /** A segment without either-side times. */
    public LinearSegment(Long from, Long to, long origin, double offset, double drift) {
        this(from, to, origin, offset, drift, null, null);
    }

    /** This segment with the either-side times [eitherFrom, eitherTo) (nulls: none). */
    public LinearSegment withEitherSide(Long eitherFrom, Long eitherTo) {
        return new LinearSegment(from, to, origin, offset, drift, eitherFrom, eitherTo);
    }

    /** {@code ref(t) − t}, in ns, as a double (small: offsets and drift corrections). */
    public double correction(long t) {
        return offset + drift * (double) (t - origin);
    }

    /** {@code ref(t)} on this segment's line, to the nearest ns. */
    public long apply(long t) {
        return t + Math.round(correction(t));
    }

    /** True when t lies in [from, to). */
    public boolean contains(long t) {
        return (from == null || t >= from) && (to == null || t < to);
    }
}
