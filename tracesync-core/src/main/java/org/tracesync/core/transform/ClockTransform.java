package org.tracesync.core.transform;

import java.util.List;

/**
 * Maps a node's local timestamps onto its reference clock: one or more {@link LinearSegment}s
 * (one open segment for a linear transform; consecutive [from, to) pieces for a piecewise one:
 * the first open to the left, the last open to the right, each {@code to} the next {@code from}).
 * A piecewise transform is continuous at a knot unless a clock step was found there (DESIGN §6).
 *
 * <p>Around a clock step a local time may have two readings, the line before the step and the
 * line after ({@link #stepAround}): after a backward step the clock read the same local times
 * twice, and within a step's interval the messages cannot tell on which side an event came. The
 * segment {@code from}s cut there for readers that know only the local time; readers that know
 * the event's position pick by it ({@link MessageEnds}, {@link ReadingsInOrder}).
 *
 * <p>Cost: {@link #correction} and {@link #stepAround} are O(log segments) (binary search on the
 * knots); {@link #inverse} and {@link #then} are O(segments) for piecewise transforms.
 */
public record ClockTransform(List<LinearSegment> segments) {

    public ClockTransform {
        segments = List.copyOf(segments);
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a transform needs at least one segment");
        }
        for (int k = 1; k < segments.size(); k++) {
            Long from = segments.get(k).from();
            Long prevTo = segments.get(k - 1).to();
            if (from == null || prevTo == null || !from.equals(prevTo)
                    || (segments.get(k - 1).from() != null && segments.get(k - 1).from() >= from)) {
                throw new IllegalArgumentException("segments must be consecutive [from, to) pieces: segment " + k);
            }
        }
    }

    /** The identity transform (a reference node, or an unsynchronized node). */
    public static ClockTransform identity(long origin) {
        return linear(origin, 0.0, 0.0);
    }

    public static ClockTransform linear(long origin, double offset, double drift) {
        return new ClockTransform(List.of(new LinearSegment(null, null, origin, offset, drift)));
    }

    public boolean isLinear() {
        return segments.size() == 1;
    }

    /** The single segment of a linear transform. */
    public LinearSegment linearSegment() {
        if (!isLinear()) {
            throw new IllegalStateException("transform is piecewise");
        }
        return segments.get(0);
    }

    /** The segment whose [from, to) holds t; outside them all, the nearest end segment. O(log n). */
    public LinearSegment segmentAt(long t) {
        return segments.get(indexAt(t));
    }

    /** Index of {@link #segmentAt}. */
    public int indexAt(long t) {
        int lo = 0;
        int hi = segments.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            Long from = segments.get(mid).from();
            if (from == null || from <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** {@code ref(t) − t} in ns. */
    public double correction(long t) {
        return segmentAt(t).correction(t);
    }

    /**
     * The clock step local time t lies around: the index k ≥ 1 of a segment that starts at a step
     * when t lies in that segment's either-side times ({@link LinearSegment#eitherFrom}: the
     * messages cannot tell on which side of the step an event there came), or in the local times
     * read twice after a backward step there (from {@code from} to {@link #readTwiceEnd}, also
     * without either-side times); else −1. Around a step an event has two readings, segment
     * k − 1's line (it came before the step) and segment k's (after); its local time alone picks
     * segment k from {@code from} on, but only its position in its trace tells: see
     * {@link MessageEnds} (message ends) and {@link ReadingsInOrder} (a trace read in order).
     * O(log segments).
     */
    public int stepAround(long t) {
        int n = segments.size();
        if (n == 1) {
            return -1;
        }
        int k0 = indexAt(t);
        for (int k = Math.max(1, k0 - 1); k <= Math.min(n - 1, k0 + 2); k++) {
            LinearSegment s = segments.get(k);
            if (s.eitherFrom() != null && t >= s.eitherFrom() && t < s.eitherTo()) {
                return k;
            }
        }
        return k0 > 0 && t < readTwiceEnd(k0) ? k0 : -1;
    }

    /**
     * Whether some local time has two readings ({@link #stepAround} is not −1 everywhere): a
     * segment with either-side times, or times read twice after a backward step. False for a
     * linear transform and a continuous piecewise one. O(segments).
     */
    public boolean hasTwoReadings() {
        for (int k = 1; k < segments.size(); k++) {
            if (segments.get(k).eitherFrom() != null || readTwiceEnd(k) > segments.get(k).from()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the clock read local time t twice: just after a backward step (see {@link #readTwiceEnd}). O(log segments). */
    public boolean readTwice(long t) {
        if (segments.size() == 1) {
            return false;
        }
        int k = indexAt(t);
        return k > 0 && t < readTwiceEnd(k);
    }

    /**
     * End (exclusive) of the local times read twice from segment k's start, where the correction
     * jumps up (the node's clock went back: {@code from} is the first local time read after the
     * step): the first local time whose reading before the step (segment k − 1's line) maps at
     * or after where segment k starts on the reference. {@code from} itself (nothing read twice)
     * where the correction does not jump up by at least 1 ns. Capped at segment k's {@code to}.
     * O(1).
     */
    public long readTwiceEnd(int k) {
        LinearSegment s = segments.get(k);
        LinearSegment p = segments.get(k - 1);
        long from = s.from();
        double jump = s.correction(from) - p.correction(from);
        if (!(jump >= 1.0)) {
            return from;
        }
        long start = s.apply(from); // where segment k starts, on the reference
        long end = from + (long) Math.ceil((double) (start - p.apply(from)) / (1 + p.drift()));
        // exact to the ns: the first t with p.apply(t) >= start
        while (end > from && p.apply(end - 1) >= start) {
            end--;
        }
        while (p.apply(end) < start) {
            end++;
        }
        return s.to() == null ? end : Math.min(end, s.to());
    }

    /** {@code ref(t)} rounded to the nearest ns. */
    public long apply(long t) {
        return t + Math.round(correction(t));
    }

    /**
     * The inverse of a linear transform: maps the reference clock back to this node's clock.
     * For {@code ref(t) = t + K + d·(t − g)}: origin {@code g' = g + round(K)},
     * drift {@code −d / (1 + d)}, offset {@code −round(K) + (round(K) − K) / (1 + d)}.
     */
    public ClockTransform inverse() {
        if (!isLinear()) {
            return piecewiseInverse();
        }
        LinearSegment s = linearSegment();
        double k = s.offset();
        long rounded = Math.round(k);
        double d = s.drift();
        return linear(Math.addExact(s.origin(), rounded), -rounded + (rounded - k) / (1 + d), -d / (1 + d));
    }

    /**
     * Each segment inverted on the image of its [from, to). Where a step makes images overlap
     * (the clock jumped back: those reference times are read twice) the later segment takes over
     * at the image of its start; where a step leaves a gap, the earlier segment extends over it.
     */
    private ClockTransform piecewiseInverse() {
        int n = segments.size();
        long[] starts = new long[n];
        for (int k = 1; k < n; k++) {
            LinearSegment s = segments.get(k);
            starts[k] = s.from() + Math.round(s.correction(s.from()));
            if (k > 1 && starts[k] <= starts[k - 1]) {
                starts[k] = starts[k - 1] + 1;
            }
        }
        List<LinearSegment> out = new java.util.ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            LinearSegment s = segments.get(k);
            LinearSegment inv = linear(s.origin(), s.offset(), s.drift()).inverse().segments.get(0);
            LinearSegment o = new LinearSegment(k == 0 ? null : starts[k], k == n - 1 ? null : starts[k + 1],
                    inv.origin(), inv.offset(), inv.drift());
            if (k > 0 && s.eitherFrom() != null) {
                // the images of [eitherFrom, eitherTo) on either side's line: the times an event
                // there may have read, whichever side of the step it came
                LinearSegment p = segments.get(k - 1);
                o = o.withEitherSide(Math.min(s.apply(s.eitherFrom()), p.apply(s.eitherFrom())),
                        Math.max(s.apply(s.eitherTo()), p.apply(s.eitherTo())));
            }
            out.add(o);
        }
        return new ClockTransform(out);
    }

    /**
     * {@code outer ∘ this} for linear transforms: first this (local → intermediate clock), then
     * {@code outer} (intermediate → its reference). Origin stays this transform's origin.
     */
    public ClockTransform then(ClockTransform outer) {
        if (isLinear() && outer.isLinear()) {
            LinearSegment c = compose(linearSegment(), outer.linearSegment());
            return linear(c.origin(), c.offset(), c.drift());
        }
        // knots: this transform's, and the preimages of outer's
        java.util.TreeSet<Long> knots = new java.util.TreeSet<>();
        for (int k = 1; k < segments.size(); k++) {
            knots.add(segments.get(k).from());
        }
        for (int k = 1; k < outer.segments.size(); k++) {
            long m = outer.segments.get(k).from();
            knots.add(preimage(m));
        }
        // either-side times of this transform's steps (local already) and of outer's (their
        // preimages), by the knot where the composed transform is cut
        java.util.Map<Long, long[]> either = new java.util.HashMap<>();
        for (int k = 1; k < segments.size(); k++) {
            LinearSegment s = segments.get(k);
            if (s.eitherFrom() != null) {
                either.put(s.from(), new long[] {s.eitherFrom(), s.eitherTo()});
            }
        }
        for (int k = 1; k < outer.segments.size(); k++) {
            LinearSegment s = outer.segments.get(k);
            if (s.eitherFrom() != null) {
                long[] z = {preimage(s.eitherFrom()), preimage(s.eitherTo())};
                either.merge(preimage(s.from()), z, (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
            }
        }
        List<LinearSegment> out = new java.util.ArrayList<>(knots.size() + 1);
        Long from = null;
        java.util.Iterator<Long> it = knots.iterator();
        while (true) {
            Long to = it.hasNext() ? it.next() : null;
            long probe = from != null && to != null ? from + (to - from) / 2
                    : from != null ? from : (to != null ? to - 1 : segments.get(0).origin());
            int i = indexAt(probe);
            LinearSegment in = segments.get(i);
            LinearSegment o = outerSegment(outer, i, apply(probe));
            LinearSegment c = compose(in, o);
            long[] z = from == null ? null : either.get(from);
            out.add(new LinearSegment(from, to, c.origin(), c.offset(), c.drift(), z == null ? null : z[0],
                    z == null ? null : z[1]));
            if (to == null) {
                break;
            }
            from = to;
        }
        return new ClockTransform(out);
    }

    /**
     * The segment of {@code outer} that maps segment i's image y in a composition. Around a step
     * of this transform where the intermediate clock went back (the correction drops at a knot:
     * the images of the segments on either side overlap, the intermediate times there were read
     * twice), that step is the intermediate clock's own, and the outer transform sees it too (a
     * step where its correction jumps up, with its either-side times or its times read twice
     * meeting that overlap): an image there is on the side of the step that segment i says, before
     * it or after it, not where its value alone falls (which put the whole segment before the step
     * a step's size off). Elsewhere the segment whose [from, to) holds y. O(log segments).
     */
    private LinearSegment outerSegment(ClockTransform outer, int i, long y) {
        long[] before = i + 1 < segments.size() ? overlap(i + 1) : null; // segment i ends at such a step
        long[] after = i > 0 ? overlap(i) : null; // segment i starts at one
        if (before != null) {
            y = Math.min(y, before[0] - 1);
        }
        if (after != null) {
            y = Math.max(y, after[1]);
        }
        int j = outer.stepAround(y);
        if (j > 0 && (before == null) != (after == null)) {
            long[] o = before != null ? before : after;
            LinearSegment s = outer.segments.get(j);
            long from = s.eitherFrom() == null ? s.from() : Math.min(s.eitherFrom(), s.from());
            long to = Math.max(s.eitherTo() == null ? s.from() : s.eitherTo(), outer.readTwiceEnd(j));
            if (s.correction(s.from()) > outer.segments.get(j - 1).correction(s.from()) && from < o[1] && to > o[0]) {
                return outer.segments.get(before != null ? j - 1 : j);
            }
        }
        return outer.segmentAt(y);
    }

    /**
     * The image times [start, end) that segments k − 1 and k both reach, where the correction
     * drops at segment k's start (the clock this transform maps to went back there); null where
     * it does not drop by at least 1 ns. O(1).
     */
    private long[] overlap(int k) {
        long knot = segments.get(k).from();
        long start = segments.get(k).apply(knot);
        long end = segments.get(k - 1).apply(knot);
        return start < end ? new long[] {start, end} : null;
    }

    /** {@code out ∘ in} for two linear pieces; origin stays in's. */
    private static LinearSegment compose(LinearSegment in, LinearSegment out) {
        double d1 = out.drift();
        double d2 = in.drift();
        double offset = in.offset() + out.offset() + d1 * ((double) (in.origin() - out.origin()) + in.offset());
        return new LinearSegment(null, null, in.origin(), offset, d1 + d2 + d1 * d2);
    }

    /**
     * The first local time whose image is at or after {@code m} (for a knot of an outer transform):
     * found in the segment whose image holds m, to the nearest ns.
     */
    long preimage(long m) {
        int k = segments.size() - 1;
        while (k > 0) {
            LinearSegment s = segments.get(k);
            if (s.from() + Math.round(s.correction(s.from())) <= m) {
                break;
            }
            k--;
        }
        LinearSegment s = segments.get(k);
        long base = s.from() != null ? s.from() : s.origin();
        double at = (double) (m - base) - s.correction(base);
        long t = base + (long) Math.ceil(at / (1 + s.drift()));
        return t;
    }
}
