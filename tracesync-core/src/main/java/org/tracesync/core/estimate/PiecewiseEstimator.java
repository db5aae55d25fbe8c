package org.tracesync.core.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tracesync.core.accumulate.HalfHull;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.SecondThreadTask;
import org.tracesync.core.accumulate.TimeBuckets;
import org.tracesync.core.accumulate.TimeBuckets.Bucket;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.MonotoneBound;

/**
 * Piecewise-linear estimation of a pair whose hulls cross (DESIGN §6): clocks that are not linear
 * over the whole trace (drift changing with temperature, NTP or chrony correcting the rate,
 * slews), and clocks that step.
 *
 * <h2>Pieces</h2>
 * The pair's {@link TimeBuckets} (hulls per time bucket) are scanned in time order, greedily: a
 * piece grows bucket by bucket for as long as one line fits all its messages with a margin to
 * spare, then the next piece starts. Greedy longest-feasible-prefix gives the fewest pieces among
 * fits whose knots lie on bucket boundaries (each piece ends as late as any fit's could). Each
 * piece takes the bisector of its own feasible region (Duda, Haddad). Two scans with two margins:
 * <ul>
 *   <li><b>Transform pieces</b> keep {@link #fitMargin} from the messages: (1 − {@link #BEND_SHARE})
 *       of the widest corridor a line finds through half-minute windows of this pair (about half
 *       the sum of the two minimum latencies where the clocks are linear). A piece that runs past
 *       a kink of the clock loses that margin within a few seconds and ends there, so each rate
 *       change costs about one knot, a linear stretch none, and a curving clock gets
 *       pieces short enough that its sag stays within 2·BEND_SHARE of that corridor.</li>
 *   <li><b>Bound pieces</b> keep {@link #MARGIN} only, and are then subdivided where neighbouring
 *       pieces show curvature ({@link #subdivide}); they carry the bounds only, so a short
 *       bound piece costs no segment.</li>
 * </ul>
 *
 * <h2>Continuity</h2>
 * Neighbouring transform pieces are joined, in this order of preference:
 * <ol>
 *   <li>at their lines' <b>crossing</b>, when it lies in the second half of the left piece or the
 *       first half of the right one and the kinked function fits every message between it and
 *       the boundary: one knot, inside a bucket;</li>
 *   <li>by a <b>slew</b> ({@link #slew}): where one or a few short pieces or broken buckets lie
 *       between two pieces, a line of at most {@link #MAX_SLEW_RATE} from the left line to the
 *       right one that, with both knots, fits every message around — a kink pair, not a step
 *       (tried first up to the farthest piece within {@link #SLEW_BUCKETS} buckets: a short
 *       piece inside a slew has too few buckets to fix its own drift);</li>
 *   <li>by a <b>bridge</b>: a short piece from the left line at the start of one of its last
 *       buckets to the right line at the end of one of the next piece's first buckets
 *       (1–{@value #MAX_BRIDGE} buckets each side, shortest first).</li>
 * </ol>
 * Each is kept only when the function fits: checked against the buckets' polylines (their
 * vertices, and both lines at each knot inside a polyline's span), which is exact for the
 * polylines and so sufficient for the messages: no message is inverted. Near the pieces'
 * boundaries ({@link #refined}) the polylines are the buckets' sub-bucket hulls concatenated
 * ({@link TimeBuckets#fine}), which follow a slew's corner at a quarter of the bucket width where a
 * bucket's hull edge bridges it (at 50 messages/s, a 1-s hull hid how close the messages come to
 * the corner, and slews were taken for steps); elsewhere the buckets' hulls. A continuous
 * transform keeps each trace's own event order.
 *
 * <h2>Steps</h2>
 * Where none of these joins two pieces, the two pieces' bound intervals at the cut are compared:
 * disjoint by more than their two widths together (an offset jump far beyond the corridor) is a
 * {@link ClockStep}, reported with its size and bounds; otherwise a small <em>break</em>
 * (counted and stated in the note). A bucket that no line fits by itself and no slew explains
 * holds a step: it is left out of both pieces and the cut is placed inside it where fewest of
 * its hull points are violated (its other messages may stay inverted: counted in
 * {@code unresolved}). A step's time bounds run from the last hull vertex only the line before
 * explains to the first only the line after explains ({@link #stepRange}); the messages between
 * fit both, and the cut moves to the fitting instant nearest the middle ({@link #centredCut}).
 * A transform piece too short to bound its drift is judged by the bound piece on its side.
 *
 * <h2>Bounds</h2>
 * Each bound piece's bounds are Poirier's envelope of its own feasible region, widened by its
 * curvature allowance ε; they are strict <em>if each clock stays within ε of a line within each
 * bound piece</em> (ε is estimated from the neighbours' curvature, so this is an assumption, not a
 * guarantee) — stated in the note and in USER_GUIDE. A transform piece is a feasible line over
 * its buckets, and so is the line of any shorter piece inside it. Bound pieces are cut at the
 * transform's continuous knots ({@link #splitAtKnots}), so each lies within one transform piece
 * and the bounds hold for every clock linear within each transform piece. The bound pieces' bounds are
 * joined into one pair of monotone bound functions with samples on both sides of every cut, so
 * linear interpolation between rows stays exact. Around a slew, a break or a step the bounds are
 * the envelope of the bound pieces on both sides ({@link #withSlews}).
 *
 * <p>Cost: O(Σ bucket vertices) once, for the hulls of aligned blocks of buckets
 * ({@link BucketBlocks}); then O(Σ bucket vertices · h) at most for each greedy scan (a hull copy
 * and a {@link FeasibleRegion} per bucket that the last region's witness line does not clear;
 * O(block vertices) for a whole block it clears, the largest aligned block first), O(h) per
 * bridge or crossing, O(c² · h) per slew (c ≤ {@value #MAX_KNOT_CANDIDATES} candidate knots, h
 * the polylines' vertices around it). Linear traces never get here: a pair whose hulls admit one line
 * keeps its single segment. A pair stays {@code fallback} when a greedy piece's messages do not
 * bound its drift: with data that sparse (the original implementation's crafted crossing-hull
 * cases) any messages could be cut into pieces, and nothing would show that the clocks, not the
 * matches, are to blame.
 */
public final class PiecewiseEstimator {

    private PiecewiseEstimator() {
    }

    private enum Start { FIRST, CONTINUOUS, STEP, BREAK }

    /** A piece while fitting: buckets [first, last], line v = vk + d·(u − uk) in pair coordinates. */
    private static final class Piece {
        int first;
        int last;
        Start start;
        long uk;
        double vk;
        double d;
        MonotoneBound lower;
        MonotoneBound upper;
        boolean bounded;
        boolean boundsDue; // a transform piece whose bounds are computed when first read (classify)
        long cut; // absolute a-time where this piece's segment starts (pieces after the first)
        ClockStep step;
        boolean bridge; // a short piece joining two fitted pieces (its bounds are theirs)
        boolean slew; // a slew's line (see slew()): its bounds are the neighbours' envelope
        boolean envelope; // a bound piece that fixes no drift between two that do: their envelope
        double epsilon; // allowance for the clock's curvature inside the piece (ns), see subdivide
        double spread = Double.POSITIVE_INFINITY; // feasible drift range d_max − d_min of a fitted piece
        // a piece of {@link #free}: the half hulls of its buckets' vertices, each moved hullMargin
        // toward the other (null for the other pieces); see {@link #exactRegion} and {@link #bounds}
        HalfHull hullP;
        HalfHull hullQ;
        long hullMargin;
        double driftRange = Double.NaN; // d_max − d_min of its messages' exact region, once computed

        double at(long u) {
            return vk + d * (double) (u - uk);
        }
    }

    /**
     * The piecewise estimate of {@code acc}, or {@code fallback} unchanged when no piecewise fit
     * is possible (fewer than two buckets, a piece with messages in one direction only).
     */
    public static PairEstimate estimate(PairAccumulator acc, PairEstimate fallback) {
        return estimate(acc, fallback, NO_SLEW_RATE_BOUND);
    }

    /**
     * {@link #estimate(PairAccumulator, PairEstimate)} with a bound on a slew's rate: a slew's
     * line may depart from the line before it by at most {@code maxSlewRate} (dimensionless: 5e-4
     * for 500 ppm; {@link #NO_SLEW_RATE_BOUND} for none), and two pieces that neither a crossing
     * nor a bridge joins are tried for such a slew before a step or a break is concluded. Where no
     * slew within the bound fits the messages, the fit takes what it takes without it, and the
     * fit counts it ({@link PiecewiseFit#slewsBeyondBound}, said in the note): the data
     * contradict the bound there (a faster slew, or a step).
     */
    public static PairEstimate estimate(PairAccumulator acc, PairEstimate fallback, double maxSlewRate) {
        TimeBuckets tb = acc.timeBuckets();
        if (tb == null) {
            return fallback;
        }
        List<Bucket> b = tb.buckets();
        if (b.size() < 2) {
            return fallback;
        }
        // the hulls of aligned blocks of buckets: each vertex pushed once, here; the passes below
        // read a run's hulls from its blocks instead of pushing its buckets' vertices again
        return fit(acc, fallback, tb, b, new BucketBlocks(b), maxSlewRate);
    }

    /**
     * {@link ConvexHullEstimator#estimate}'s result for a pair whose whole hulls were not derived
     * because the hulls of a run of its buckets already cross
     * ({@link PairAccumulator#deriveUnless}): the whole hulls are the hull of its blocks' hulls
     * ({@link BucketBlocks#addRange} over every bucket: a few large blocks' vertices instead of
     * every sub-bucket's), taken by the accumulator, then the fallback line of those hulls and
     * {@link #estimate}'s fit with the same blocks. The same estimate as deriving the hulls from
     * the sub-buckets first (the hull of a point set is unique), without pushing the day's
     * sub-bucket vertices into them. O(Σ bucket vertices) for the blocks, as {@link #estimate}.
     */
    static PairEstimate estimateCrossing(PairAccumulator acc, double maxSlewRate) {
        TimeBuckets tb = acc.timeBuckets();
        List<Bucket> b = tb.buckets();
        BucketBlocks blocks = new BucketBlocks(b);
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        if (!b.isEmpty()) {
            blocks.addRange(p, q, 0, b.size() - 1, 0);
        }
        acc.takeHulls(p, q);
        PairEstimate linear = ConvexHullEstimator.estimateLinear(acc);
        if (b.size() < 2 || linear.quality() != org.tracesync.core.model.Quality.FALLBACK || !linear.hullsCross()) {
            return linear; // not reached: a run's hulls cross, so the whole pair's do
        }
        return fit(acc, linear, tb, b, blocks, maxSlewRate);
    }

    /** {@link #estimate} with the pair's buckets (at least two) and their blocks. */
    private static PairEstimate fit(PairAccumulator acc, PairEstimate fallback, TimeBuckets tb, List<Bucket> b,
                                    BucketBlocks blocks, double maxSlewRate) {
        int m = b.size();
        long x0 = acc.x0();
        long v0 = acc.v0();
        // the transform pieces' scan (2. below) reads only the buckets: on a long trace it runs on
        // a second thread while this one scans and bounds the bound pieces (1.)
        TransformScan transformScan = new TransformScan(blocks, tb);
        transformScan.start("tracesync-piecewise", m >= PARALLEL_BUCKETS);
        // 1. bound pieces: the longest feasible pieces, greedily, subdivided where the clock curves,
        //    each with its own strict bounds
        Scan scan = scan(blocks, tb, MARGIN);
        if (scan == null) {
            transformScan.join();
            return fallback;
        }
        List<Piece> sp = scan.pieces;
        for (int k = 0; k < sp.size(); k++) {
            if (Double.isInfinite(sp.get(k).spread) && (k == 0 || k == sp.size() - 1
                    || Double.isInfinite(sp.get(k - 1).spread) || Double.isInfinite(sp.get(k + 1).spread))) {
                // a piece whose messages do not even bound its drift, at an end or beside another:
                // the data is too sparse to tell a changing clock from a wrong match; any messages
                // can be cut into such pieces. Between two pieces that do, it takes their envelope
                transformScan.join();
                return fallback;
            }
        }
        List<Integer> subBroken = new ArrayList<>();
        List<Piece> boundPieces = subdivide(scan.pieces, blocks, tb, scan.brokenBefore, subBroken);
        // each bound piece's bounds depend on its own buckets and hulls only: on a long trace the
        // later half is computed on a second thread (the transform scan's is done by then, or
        // nearly), then the envelopes and cuts below read them in order, as before
        int half = boundPieces.size() / 2;
        LaterBounds laterBounds = new LaterBounds(boundPieces, half, blocks, x0, v0);
        laterBounds.start("tracesync-bounds", boundPieces.size() >= PARALLEL_BOUND_PIECES);
        for (int k = 0; k < half; k++) {
            bounds(boundPieces.get(k), b, blocks, x0, v0);
        }
        laterBounds.join();
        Piece before = null;
        for (int k = 0; k < boundPieces.size(); k++) {
            Piece p = boundPieces.get(k);
            if (!p.bounded && Double.isInfinite(p.spread) && k > 0 && k + 1 < boundPieces.size()
                    && before != null && before.bounded) {
                // a short piece between two that fix their drift: the envelope of theirs (result)
                p.lower = before.lower;
                p.upper = before.upper;
                p.bounded = true;
                p.envelope = true;
            }
            p.cut = x0 + p.uk;
            int broken = subBroken.get(k);
            if (before != null && broken >= 0) {
                p.cut = x0 + cutInside(b, broken, p.first - 1, before, p, tb, x0);
            }
            before = p;
        }
        // 2. transform pieces: the longest pieces whose line keeps a margin from the messages close
        //    to what a linear stretch of this pair keeps (so a piece ends soon after a kink)
        transformScan.join();
        long fitMargin = transformScan.margin;
        Scan fit = fitMargin > MARGIN ? transformScan.scan : scan;
        if (fit == null) {
            fit = scan;
        }
        List<Piece> pieces = fit == scan ? copies(scan.pieces) : fit.pieces;
        List<Integer> brokenBefore = fit.brokenBefore;
        int unresolved = fit.unresolved;
        for (Piece p : pieces) {
            p.start = p == pieces.get(0) ? Start.FIRST : Start.BREAK;
            p.cut = x0 + p.uk;
            // its own bounds are read only by classify (the result's bounds are the bound
            // pieces'): computed there, from the same buckets, when a piece is not continued
            p.boundsDue = true;
        }
        // 3. join neighbours continuously where the data allows (by a bridge over the buckets
        //    around the boundary); else a step or a break. Buckets near the boundaries are read
        //    at the sub-buckets' resolution: their polylines follow a slew's corner that a
        //    bucket's hull edge bridges
        List<Bucket> fb = refined(b, tb, pieces, brokenBefore);
        java.util.Map<Integer, Long> stepCuts = new java.util.HashMap<>(); // first broken bucket → cut
        List<Piece> beyondBound = new ArrayList<>(); // slews faster than maxSlewRate (none within it fit)
        List<Piece> joined = new ArrayList<>();
        joined.add(pieces.get(0));
        for (int k = 1; k < pieces.size(); k++) {
            Piece left = joined.get(joined.size() - 1);
            Piece right = pieces.get(k);
            int broken = brokenBefore.get(k);
            // one slew's line (a kink pair) in place of the broken buckets and short pieces up to
            // a later piece, the farthest first: a slew is one rate change, and the short pieces
            // in it have only a few buckets to fix their own drift
            int from = broken >= 0 ? broken : right.first;
            int target = k;
            while (target + 1 < pieces.size() && pieces.get(target + 1).first - from <= SLEW_BUCKETS) {
                target++;
            }
            Piece slew = null;
            int farthest = target;
            for (; target >= (broken >= 0 ? k : k + 1) && slew == null; target--) {
                slew = slew(left, pieces.get(target), from, pieces.get(target).first - 1, fb, tb, x0, maxSlewRate);
            }
            if (slew == null && maxSlewRate != NO_SLEW_RATE_BOUND) {
                // no slew within the bound fits: the fit without it (the data contradict the
                // bound here: a faster slew, or a step), counted and said
                for (target = farthest; target >= (broken >= 0 ? k : k + 1) && slew == null; target--) {
                    slew = slew(left, pieces.get(target), from, pieces.get(target).first - 1, fb, tb, x0,
                            NO_SLEW_RATE_BOUND);
                }
                if (slew != null && beyond(slew, left, maxSlewRate)) {
                    beyondBound.add(slew);
                }
            }
            if (slew != null) {
                target++;
                for (int j = k; j <= target; j++) {
                    if (brokenBefore.get(j) >= 0) {
                        unresolved -= pieces.get(j).first - brokenBefore.get(j);
                    }
                }
                joined.add(slew);
                joined.add(pieces.get(target));
                k = target;
                continue;
            }
            if (broken < 0 && continuation(left, right, b, fb, tb, x0, fitMargin)) {
                joined.add(right);
                continue;
            }
            if (broken >= 0) {
                // buckets no line fits and no slew explains: a step
                right.cut = x0 + cutInside(fb, broken, right.first - 1, left, right, tb, x0);
                classify(left, right, b, fb, broken, x0, v0, tb, boundPieces);
                stepCuts.put(broken, right.cut);
                joined.add(right);
                continue;
            }
            if (!cross(left, right, fb, tb, x0) && !join(left, right, fb, tb, x0, joined)) {
                // with a slew-rate bound, a slew within it is tried around the boundary before the
                // jump is classified (a step or a break): without the bound a step of S and a slew
                // of S / MAX_SLEW_RATE seconds with no message inside look the same, so a slew is
                // not tried here; with it, a step needs more than the bound allows
                Piece between = maxSlewRate == NO_SLEW_RATE_BOUND ? null
                        : slew(left, right, right.first, right.first - 1, fb, tb, x0, maxSlewRate);
                if (between != null) {
                    joined.add(between);
                } else {
                    classify(left, right, b, fb, right.first, x0, v0, tb, boundPieces);
                }
            }
            joined.add(right);
        }
        // the bounds jump where the transform does: bound pieces after the same broken buckets
        // start at the transform's cut
        for (int k = 1; k < boundPieces.size(); k++) {
            Long cut = stepCuts.get(subBroken.get(k));
            if (subBroken.get(k) >= 0 && cut != null && cut > boundPieces.get(k - 1).cut
                    && (k + 1 == boundPieces.size() || cut < boundPieces.get(k + 1).cut)) {
                boundPieces.get(k).cut = cut;
            }
        }
        List<long[]> knotZones = splitAtKnots(joined, boundPieces, blocks, tb, x0, v0);
        return result(acc, fallback, joined, boundPieces, unresolved, tb.width(), maxSlewRate, beyondBound, knotZones);
    }

    /**
     * Cuts the bound pieces at the transform's continuous knots, so that each bound piece lies
     * within one transform piece: the bounds then hold for every clock that is linear within each
     * of the result's pieces, as the note says. A bound piece is fitted with a small margin only
     * and runs past a kink; its one line is squeezed where the messages bend, and a clock that
     * kinks at the transform's knot (every message forward) left its envelope by up to 35 µs
     * (PiecewiseBoundsLpOracleTest). The piece holding a knot becomes the run of its buckets
     * before the knot's bucket and the run after it; over the knot's bucket (whose messages lie
     * on both sides of the knot) the bounds are the envelope of the two, as across a slew (a zone
     * returned for {@link #withSlews}). Knots of a slew are inside a slew's zone already. A run
     * too short to fix its drift (a knot within a few buckets of the piece's end: common, since
     * both kinds of piece end near a kink) is not kept: the zone then runs over it to the bound
     * piece beyond, whose envelope is that side's. Only the trace's first (last) bound piece,
     * when its run before (after) the knot is that short, stays whole. O(knots · log buckets +
     * bound pieces + the split pieces' vertices), and an insertion into the list of bound pieces
     * per split.
     */
    private static List<long[]> splitAtKnots(List<Piece> pieces, List<Piece> bound, BucketBlocks blocks, TimeBuckets tb,
                                             long x0, long v0) {
        List<long[]> zones = new ArrayList<>();
        List<Bucket> b = blocks.buckets();
        long w = tb.width();
        int i = -1; // the last bound piece whose cut is at or before the knot (knots and cuts ascend)
        for (int k = 1; k < pieces.size(); k++) {
            Piece next = pieces.get(k);
            if (next.start != Start.CONTINUOUS || next.slew || pieces.get(k - 1).slew) {
                continue;
            }
            long knot = next.cut;
            while (i + 1 < bound.size() && bound.get(i + 1).cut <= knot) {
                i++;
            }
            if (i < 0) {
                continue;
            }
            Piece p = bound.get(i);
            if (p.cut == knot || p.envelope) {
                continue;
            }
            int kb = bucketAt(b, tb, knot - x0);
            if (kb > p.last) {
                // past the piece's last bucket, before the next one's first: the piece's messages
                // all lie before the knot, the next one's after it, whose envelope starts there
                if (i + 1 < bound.size() && bound.get(i + 1).cut > knot) {
                    bound.get(i + 1).cut = knot;
                }
                continue;
            }
            if (kb < p.first) {
                p.cut = knot; // before the piece's first bucket: its envelope starts at the knot
                continue;
            }
            long bucketStart = x0 + tb.startU(b.get(kb).key());
            boolean inGap = knot - bucketStart >= w; // after bucket kb's end: no message of the piece around it
            int leftEnd = inGap ? kb : kb - 1;
            int rightStart = kb + 1;
            Piece p1 = leftEnd >= p.first ? run(blocks, p.first, leftEnd, tb, p) : null;
            Piece p2 = rightStart <= p.last ? run(blocks, rightStart, p.last, tb, p) : null;
            for (Piece q : new Piece[] {p1, p2}) {
                if (q != null) {
                    q.epsilon = p.epsilon;
                    q.start = p.start;
                }
            }
            boolean left = fitsAlone(p1, leftEnd) && withBounds(p1, b, blocks, x0, v0);
            boolean right = fitsAlone(p2, p.last) && withBounds(p2, b, blocks, x0, v0);
            Piece before = i > 0 ? bound.get(i - 1) : null;
            Piece after = i + 1 < bound.size() ? bound.get(i + 1) : null;
            // a run too short to fix its drift (the knot within a few buckets of the piece's end)
            // takes the bound piece beyond it as its side instead: the zone then covers that run
            boolean leftSide = left || before != null && before.bounded;
            boolean rightSide = right || after != null && after.bounded;
            if (!leftSide || !rightSide) {
                continue; // the trace's first or last bound piece, too short on that side: left whole
            }
            long zoneFrom = left ? (inGap ? knot : bucketStart) : p.cut;
            long zoneTo = right ? bucketStart + w - 1 : after.cut;
            if (left && right) {
                p1.cut = p.cut;
                p2.cut = inGap ? knot : bucketStart;
                bound.set(i, p1);
                bound.add(i + 1, p2);
            } else if (left) {
                p1.cut = p.cut;
                bound.set(i, p1);
            } else if (right) {
                p2.cut = p.cut;
                bound.set(i, p2);
            }
            if (zoneTo > zoneFrom) {
                long buckets = (zoneTo - zoneFrom) / w + 1;
                zones.add(new long[] {zoneFrom, zoneTo, Math.min(ZONE_SAMPLES, KNOT_ZONE_SAMPLES * buckets)});
            }
        }
        return zones;
    }

    /** {@link #bounds} of a piece of {@link #splitAtKnots}: true when it has two-sided bounds. */
    private static boolean withBounds(Piece q, List<Bucket> b, BucketBlocks blocks, long x0, long v0) {
        bounds(q, b, blocks, x0, v0);
        return q.bounded;
    }

    /** The index of the last bucket starting at or before u (0 when none does). */
    private static int bucketAt(List<Bucket> b, TimeBuckets tb, long u) {
        int lo = 0;
        int hi = b.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (tb.startU(b.get(mid).key()) <= u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return Math.max(0, lo - 1);
    }

    /**
     * Pairs with at least this many buckets (about an hour of 1-s buckets) scan their transform
     * pieces on a second thread, beside the bound pieces' scan: the two read the same buckets and
     * nothing else, so the pieces are the same as on one thread.
     */
    static final int PARALLEL_BUCKETS = 4096;

    /**
     * The transform pieces' scan of {@link #estimate}: {@link #fitMargin}, then the greedy scan with
     * it (when it exceeds {@link #MARGIN}; else null, and the bound pieces' scan serves). Reads
     * only the buckets (sealed, unchanged while it runs).
     */
    private static final class TransformScan extends SecondThreadTask<TransformScan> {
        private final BucketBlocks b;
        private final TimeBuckets tb;
        long margin;
        Scan scan;

        TransformScan(BucketBlocks b, TimeBuckets tb) {
            this.b = b;
            this.tb = tb;
        }

        @Override
        protected TransformScan compute() {
            margin = fitMargin(b);
            scan = margin > MARGIN ? scan(b, tb, margin) : null;
            return this;
        }
    }

    /**
     * From this many bound pieces on (a few hours of a clock that curves), {@link #estimate}
     * computes the later half's {@link #bounds} on a second thread.
     */
    static final int PARALLEL_BOUND_PIECES = 256;

    /** {@link #bounds} of the bound pieces from {@code from} on (see {@link #estimate}). */
    private static final class LaterBounds extends SecondThreadTask<LaterBounds> {
        private final List<Piece> pieces;
        private final int from;
        private final BucketBlocks b;
        private final long x0;
        private final long v0;

        LaterBounds(List<Piece> pieces, int from, BucketBlocks b, long x0, long v0) {
            this.pieces = pieces;
            this.from = from;
            this.b = b;
            this.x0 = x0;
            this.v0 = v0;
        }

        @Override
        protected LaterBounds compute() {
            for (int k = from; k < pieces.size(); k++) {
                bounds(pieces.get(k), b.buckets(), b, x0, v0);
            }
            return this;
        }
    }

    /** Buckets within this many of a transform piece's boundary are read fine ({@link #refined}). */
    private static final int FINE_REACH = 8;

    /**
     * {@code b} with the buckets within {@link #FINE_REACH} of each transform piece's boundary
     * (and the broken buckets before it) replaced by their sub-buckets' polylines
     * ({@link TimeBuckets#fine}): where the pieces are joined, by a slew, a bridge, a crossing or a
     * step's cut, checks against the polylines follow the messages at a quarter of the bucket
     * width. Elsewhere the bucket hulls stay (fewer vertices; the greedy scans read hulls only, and
     * a piece's feasibility is the same for either). Both are exact sides for the checks
     * ({@link #sides}); only a hull goes into a {@link FeasibleRegion}. O(refined vertices).
     */
    private static List<Bucket> refined(List<Bucket> b, TimeBuckets tb, List<Piece> pieces, List<Integer> brokenBefore) {
        boolean[] fine = new boolean[b.size()];
        for (int k = 1; k < pieces.size(); k++) {
            int from = brokenBefore.get(k) >= 0 ? brokenBefore.get(k) : pieces.get(k).first;
            for (int i = Math.max(0, from - FINE_REACH); i <= Math.min(b.size() - 1, pieces.get(k).first + FINE_REACH); i++) {
                fine[i] = true;
            }
        }
        List<Bucket> out = new ArrayList<>(b);
        // the marked buckets lie within the same ranges: visit those (a few per boundary) rather
        // than every bucket of the day in a loop run once (so interpreted until its on-stack
        // compilation), each marked one once
        for (int k = 1; k < pieces.size(); k++) {
            int from = brokenBefore.get(k) >= 0 ? brokenBefore.get(k) : pieces.get(k).first;
            for (int i = Math.max(0, from - FINE_REACH); i <= Math.min(b.size() - 1, pieces.get(k).first + FINE_REACH); i++) {
                if (fine[i]) {
                    out.set(i, tb.fine(b.get(i).key()));
                    fine[i] = false;
                }
            }
        }
        return out;
    }

    /** Pieces of a greedy scan, the first broken bucket before each (or −1), and the broken buckets. */
    private record Scan(List<Piece> pieces, List<Integer> brokenBefore, int unresolved) {
    }

    /**
     * The greedy scan: from the first bucket on, the longest piece whose line keeps {@code margin}
     * ns from every message, then the next. A bucket that fits no line on its own is broken (a
     * step inside). Null when no piece is found.
     */
    private static Scan scan(BucketBlocks blocks, TimeBuckets tb, long margin) {
        List<Bucket> b = blocks.buckets();
        int m = b.size();
        List<Piece> pieces = new ArrayList<>();
        List<Integer> brokenBefore = new ArrayList<>();
        Piece prev = null;
        int i = 0;
        int unresolved = 0;
        int brokenSince = -1;
        while (i < m) {
            if (!feasible(b.get(i))) {
                unresolved++;
                if (brokenSince < 0) {
                    brokenSince = i;
                }
                i++;
                continue;
            }
            Piece p = free(blocks, i, m - 1, tb, prev, margin);
            if (p != null && p.first == p.last && Double.isInfinite(p.spread) && i + 1 < m) {
                p = null; // one bucket that joins neither neighbour and fixes no drift: a step inside it
            }
            if (p != null && steep(p, prev, m)) {
                // a short piece every line of which departs from the line before by more than a
                // slew can: a step inside it that its few messages let one steep line bridge.
                // Its buckets are broken, as a bucket no line fits: a slew is tried there, else
                // the step is cut and reported (issue #13, PiecewiseStepAsSteepPieceTest)
                unresolved += p.last - p.first + 1;
                if (brokenSince < 0) {
                    brokenSince = i;
                }
                i = p.last + 1;
                continue;
            }
            if (p == null) {
                if (i + 1 >= m && pieces.isEmpty()) {
                    return null;
                }
                unresolved++;
                if (brokenSince < 0) {
                    brokenSince = i;
                }
                i++;
                continue;
            }
            p.start = prev == null ? Start.FIRST : Start.BREAK;
            pieces.add(p);
            brokenBefore.add(brokenSince);
            prev = p;
            brokenSince = -1;
            i = p.last + 1;
        }
        return pieces.isEmpty() ? null : new Scan(pieces, brokenBefore, unresolved);
    }

    /**
     * Whether {@code p}, a piece of the greedy scan after {@code prev}, is a step's steep line: at
     * most {@link #SLEW_BUCKETS} buckets, not the trace's last, and even the drift of its feasible
     * range nearest {@code prev}'s departs from it by more than {@link #MAX_SLEW_RATE} (the
     * bisector's distance less the whole range, which holds the bisector). A 2.4 ms step at 4
     * messages/s was one 0.645-s piece at −3,662 ppm, joined to both neighbours at crossings, and
     * went unreported.
     */
    private static boolean steep(Piece p, Piece prev, int m) {
        return prev != null && p.last + 1 < m && p.last - p.first + 1 <= SLEW_BUCKETS
                && Math.abs(p.d - prev.d) - p.spread > MAX_SLEW_RATE;
    }

    private static List<Piece> copies(List<Piece> pieces) {
        List<Piece> out = new ArrayList<>(pieces.size());
        for (Piece p : pieces) {
            Piece c = new Piece();
            c.first = p.first;
            c.last = p.last;
            c.start = p.start;
            c.uk = p.uk;
            c.vk = p.vk;
            c.d = p.d;
            c.spread = p.spread;
            c.epsilon = p.epsilon;
            c.hullP = p.hullP;
            c.hullQ = p.hullQ;
            c.hullMargin = p.hullMargin;
            c.driftRange = p.driftRange;
            out.add(c);
        }
        return out;
    }

    /** Buckets per window of {@link #fitMargin} (at least). */
    private static final int MARGIN_WINDOW_BUCKETS = 30;

    /** Share of the linear margin a transform piece may give up to a bend of the clock. */
    static final double BEND_SHARE = 0.05;

    /**
     * The margin transform pieces keep from the messages: (1 − BEND_SHARE) × the median, over
     * windows of {@link #MARGIN_WINDOW_BUCKETS} buckets, of the largest margin a line keeps from
     * the window's messages (half the height of the widest corridor through them). A window over
     * which the clocks are linear keeps about half the sum of the two minimum latencies; a piece
     * that runs past a kink loses margin quickly, so it ends within about BEND_SHARE × that of
     * the kink. O(buckets · h).
     */
    private static long fitMargin(BucketBlocks b) {
        int windows = b.buckets().size() / MARGIN_WINDOW_BUCKETS;
        if (windows < 1) {
            return 0;
        }
        double[] margins = new double[windows];
        int n = 0;
        for (int w = 0; w < windows; w++) {
            FeasibleRegion f = boundedRegion(b, w * MARGIN_WINDOW_BUCKETS, (w + 1) * MARGIN_WINDOW_BUCKETS - 1);
            if (f != null) {
                margins[n++] = 0.5 * maxPhi(f);
            }
        }
        if (n == 0) {
            return 0;
        }
        Arrays.sort(margins, 0, n);
        return (long) Math.floor((1 - BEND_SHARE) * margins[n / 2]);
    }

    /** The largest φ(d) over [d_min, d_max] (φ is concave). */
    private static double maxPhi(FeasibleRegion f) {
        return f.phi(argMaxPhi(f));
    }

    /**
     * The slope of the widest corridor, argmax φ(d) over [d_min, d_max] (φ is concave): golden-section
     * search, 80 steps.
     */
    private static double argMaxPhi(FeasibleRegion f) {
        double lo = f.dMin().toDouble();
        double hi = f.dMax().toDouble();
        final double g = 0.6180339887498949;
        double x1 = hi - g * (hi - lo);
        double x2 = lo + g * (hi - lo);
        double f1 = f.phi(x1);
        double f2 = f.phi(x2);
        for (int it = 0; it < 80; it++) {
            if (f1 < f2) {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + g * (hi - lo);
                f2 = f.phi(x2);
            } else {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - g * (hi - lo);
                f1 = f.phi(x1);
            }
        }
        double best = f1 >= f2 ? x1 : x2;
        double dMin = f.dMin().toDouble();
        double dMax = f.dMax().toDouble();
        if (f.phi(dMin) > f.phi(best)) {
            best = dMin;
        }
        if (f.phi(dMax) > f.phi(best)) {
            best = dMax;
        }
        return best;
    }

    /**
     * A slew's line may replace the broken buckets and short pieces within this many buckets
     * (see {@link #slew}): a 500 ppm slew of up to 4 s with its two corners, which at a few
     * messages per second the greedy scan splits into short pieces (5 left a 2-bucket piece
     * inside a slew of the grid's 2 h, 5 msg/s, 60 µs case, whose own drift erred by 72 ppm: 65 µs).
     */
    private static final int SLEW_BUCKETS = 8;

    /**
     * A slew's first knot is also searched in up to this many more of the left piece's last
     * buckets, and its second in up to this many more of the right piece's first buckets
     * ({@link #slew}): at a few messages per second a greedy piece runs into a slew for a second
     * or two (a line still fits its sparse messages there), so the slew's true corner can lie
     * before the bucket where the search started (the grid's 2 h, 2 msg/s, 60 µs case: 1.2 s
     * before it, and the chain taken erred by 588 µs; now 82 µs). The window is widened only when
     * the chain the first search takes meets its edge on that side, and the wider search tries
     * only the pairs of knots that involve an added candidate, against the first search's choice:
     * the order of the old chains stays (their gaps to the added buckets' vertices are common to
     * all of them), so the result is the first choice or a new chain that keeps the messages
     * farther away, at a fraction of a full second search (docs/PERFORMANCE.md, acceptance grid,
     * twelfth session: the 24 h wandering day's two widened searches 57 → 7 ms).
     */
    private static final int SLEW_BACK = 2;

    /** See {@link #SLEW_BACK}. */
    private static final int SLEW_AHEAD = 2;

    private static long[] concat(long[] x, long[] y) {
        long[] out = Arrays.copyOf(x, x.length + y.length);
        System.arraycopy(y, 0, out, x.length, y.length);
        return out;
    }

    /**
     * Fastest rate change taken for a slew rather than a step: 1,000 ppm (ntpd slews at 500 ppm at
     * most). A faster "slew" (chrony may slew at up to 83,333 ppm) is reported as a step.
     */
    static final double MAX_SLEW_RATE = 1e-3;

    /** No bound on a slew's rate relative to the line before, beyond {@link #MAX_SLEW_RATE}: the default fit. */
    public static final double NO_SLEW_RATE_BOUND = Double.POSITIVE_INFINITY;

    /**
     * Added to a given slew-rate bound: a slew's chain runs between two pieces' lines, which are
     * estimates (drifts known to a few ppm, offsets to tens of µs: over a slew of a few seconds,
     * some ppm of rate), so the chain that follows a true 500 ppm slew may need a little more
     * (the grid's 2 h, 2 msg/s, 30 µs case, seed 1: 5 ppm left no chain within 505 ppm, 10 ppm
     * found one within the minimum latency's reach). 500 ppm is applied as 510.
     */
    static final double SLEW_RATE_SLACK = 10e-6;

    /** Whether {@code slew}'s line departs from {@code left}'s by more than the bound (and its slack). */
    private static boolean beyond(Piece slew, Piece left, double maxSlewRate) {
        return Math.abs(slew.d - left.d) > maxSlewRate + SLEW_RATE_SLACK;
    }

    /**
     * A piece's drift is poorly fixed when its messages leave it a feasible drift range this many
     * times as wide as its left neighbour's ({@link #continuation}).
     */
    static final double LOOSE_RATIO = 2.0;

    /**
     * Share of the transform pieces' margin a continued line must keep from every message of the
     * piece it continues into ({@link #continuation}).
     */
    static final double CONTINUE_SHARE = 0.8;

    /**
     * Continues {@code left}'s line into {@code right} when {@code right}'s own messages fix its
     * drift poorly and do not ask for a new one: {@code right} gets the line through {@code left}'s
     * value at {@code right}'s first bucket start whose drift is nearest {@code left}'s among those
     * keeping {@link #CONTINUE_SHARE} of the transform pieces' margin from every message of
     * {@code right}'s buckets (one knot, on a bucket boundary, so checking the polylines' vertices
     * is exact).
     *
     * <p>"Poorly" compares the feasible drift ranges of the two pieces' own messages (the exact
     * regions, not those of the hulls moved by the margin, which may exclude the true line and
     * then look narrow around a wrong drift): when {@code right}'s is more than
     * {@link #LOOSE_RATIO} times {@code left}'s, {@code left}'s drift is the better known, and
     * extending it errs less than {@code right}'s bisector, whose drift may be off by half of its
     * range. A short piece's guess extrapolates: at 2 messages/s a 1-s last piece took 280 ppm
     * for a clock of 3 ppm (513 µs of error), an 11-s piece 7 ppm (37 µs), a 6-s piece before a
     * step 6 ppm for 20 (40 µs). "Do not ask": the continued line keeps nearly the margin a line
     * keeps through a linear stretch of this pair, as the transform pieces do; past a kink
     * (an NTP rate correction) the continued line runs into the messages within seconds and
     * keeps far less (0.1–25 µs against 44 on the kinks of
     * {@code ntpCorrectionsNeedAtMostTwoSegmentsPerRateChange}; 26–30 µs against 30 on the
     * linear stretches of the steps cases), so there {@code right}'s own line stays. False, with
     * {@code right} unchanged, when either test fails. O(h) for h vertices of the two pieces'
     * buckets (two regions).
     */
    private static boolean continuation(Piece left, Piece right, List<Bucket> b, List<Bucket> fb, TimeBuckets tb,
                                        long x0, long fitMargin) {
        if (fitMargin <= MARGIN || left.slew || left.bridge) {
            return false;
        }
        long ub = tb.startU(b.get(right.first).key());
        if (ub <= left.cut - x0) {
            return false;
        }
        double own = driftRange(right, b);
        double known = driftRange(left, b);
        if (!(own > LOOSE_RATIO * known)) {
            return false;
        }
        double vb = left.at(ub);
        long keep = (long) Math.ceil(CONTINUE_SHARE * fitMargin);
        double[] range = {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
        for (int k = right.first; k <= right.last; k++) {
            if (!driftsThrough(fb.get(k), ub, vb, keep, range)) {
                return false;
            }
        }
        double lo = range[0];
        double hi = range[1];
        if (!(lo <= hi)) {
            return false;
        }
        double d = Math.max(lo, Math.min(hi, left.d));
        long end = tb.startU(b.get(right.last).key()) + tb.width();
        if (!(Math.max(Math.abs(right.at(ub) - vb), Math.abs(right.at(end) - (vb + d * (double) (end - ub)))) > fitMargin)) {
            return false; // the two lines stay within the margin of each other: right's own is as good
        }
        right.d = d;
        right.uk = ub;
        right.vk = vb;
        right.cut = x0 + ub;
        right.start = Start.CONTINUOUS;
        return true;
    }

    /**
     * {@link #continuation}'s test of one bucket: narrows {@code range} (the lowest and highest
     * drift of a line through (ub, vb)) to the drifts that keep the line {@code keep} inside the
     * bucket's a → b vertices (at or below) and b → a vertices (at or above); false when a vertex
     * at ub itself is on the wrong side. A method per bucket (called once per bucket of the day,
     * so compiled early) instead of loops inside {@code continuation}, which runs a few hundred
     * times and so ran them interpreted.
     */
    private static boolean driftsThrough(Bucket bucket, long ub, double vb, long keep, double[] range) {
        double lo = range[0];
        double hi = range[1];
        for (int n = 0; n < bucket.pu().length; n++) {
            double room = (double) (bucket.pv()[n] - keep) - vb; // the line stays at or below
            long du = bucket.pu()[n] - ub;
            if (du == 0) {
                if (room < 0) {
                    return false;
                }
            } else {
                hi = Math.min(hi, room / (double) du);
            }
        }
        for (int n = 0; n < bucket.qu().length; n++) {
            double room = (double) (bucket.qv()[n] + keep) - vb; // the line stays at or above
            long du = bucket.qu()[n] - ub;
            if (du == 0) {
                if (room > 0) {
                    return false;
                }
            } else {
                lo = Math.max(lo, room / (double) du);
            }
        }
        range[0] = lo;
        range[1] = hi;
        return true;
    }

    /**
     * d_max − d_min of the feasible region of a piece's messages (+∞ when unbounded, empty or
     * one-way), computed once per piece: from the hulls {@link #free} kept (O(h)), else from its
     * buckets (O(vertices)).
     */
    private static double driftRange(Piece piece, List<Bucket> b) {
        if (Double.isNaN(piece.driftRange)) {
            FeasibleRegion f = piece.hullP != null ? exactRegion(piece) : boundedRegion(b, piece.first, piece.last);
            piece.driftRange = f == null ? Double.POSITIVE_INFINITY : f.dMax().toDouble() - f.dMin().toDouble();
        }
        return piece.driftRange;
    }

    /**
     * {@link #boundedRegion} of a piece of {@link #free}, from the hulls it kept: moving every
     * point of one side by the same amount moves the hull's vertices by it and keeps the same
     * points as vertices (the turn tests see only differences, exactly), so the hulls of the
     * messages are the kept ones moved back by the margin: the same vertices, the same region.
     * O(h).
     */
    private static FeasibleRegion exactRegion(Piece piece) {
        if (piece.hullP.isEmpty() || piece.hullQ.isEmpty()) {
            return null;
        }
        long[] pv = piece.hullP.vs();
        long[] qv = piece.hullQ.vs();
        for (int k = 0; k < pv.length; k++) {
            pv[k] += piece.hullMargin;
        }
        for (int k = 0; k < qv.length; k++) {
            qv[k] -= piece.hullMargin;
        }
        FeasibleRegion f = new FeasibleRegion(piece.hullP.us(), pv, piece.hullQ.us(), qv);
        return f.isEmpty() || !f.isBounded() ? null : f;
    }

    /**
     * The exact feasible region of the messages of buckets [first, last] (their hull vertices), or
     * null when it is empty, unbounded or one-way. O(h log h).
     */
    private static FeasibleRegion boundedRegion(List<Bucket> b, int first, int last) {
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        for (int k = first; k <= last; k++) {
            addVertices(p, q, b.get(k), 0);
        }
        return bounded(p, q);
    }

    /** {@link #boundedRegion}, the hulls from the blocks ({@link BucketBlocks#addRange}): the same hulls. */
    private static FeasibleRegion boundedRegion(BucketBlocks b, int first, int last) {
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        b.addRange(p, q, first, last, 0);
        return bounded(p, q);
    }

    private static FeasibleRegion bounded(HalfHull p, HalfHull q) {
        if (p.isEmpty() || q.isEmpty()) {
            return null;
        }
        FeasibleRegion f = new FeasibleRegion(p.us(), p.vs(), q.us(), q.vs());
        return f.isEmpty() || !f.isBounded() ? null : f;
    }

    /**
     * Joins {@code right} to {@code left} at their lines' crossing, when it lies within
     * {@link #MAX_BRIDGE} buckets of their boundary and the kinked function fits every message of
     * the buckets around it (checked against the hulls as polylines: exact). One knot, inside a
     * bucket, instead of a bridge's two.
     */
    private static boolean cross(Piece left, Piece right, List<Bucket> b, TimeBuckets tb, long x0) {
        if (left.d == right.d) {
            return false;
        }
        int lb = (left.first + left.last + 1) / 2;
        int rb = (right.first + right.last) / 2;
        if (lb > left.last || rb < right.first) {
            return false;
        }
        double at = right.uk + (left.at(right.uk) - right.vk) / (right.d - left.d);
        long from = Math.max(tb.startU(b.get(lb).key()), left.cut - x0 + 1);
        long to = tb.startU(b.get(rb).key()) + tb.width();
        if (!(at > from && at < to)) {
            return false;
        }
        long knot = Math.round(at);
        long boundary = tb.startU(b.get(right.first).key());
        int kb = right.first + (int) Math.floorDiv(knot - boundary, tb.width());
        if (!sides(b, Math.min(kb, left.last), Math.max(kb, right.first), new long[] {knot}, new Piece[] {left, right})) {
            return false;
        }
        right.vk = right.at(knot);
        right.uk = knot;
        right.cut = x0 + knot;
        right.start = Start.CONTINUOUS;
        return true;
    }

    /**
     * A slew between {@code left} and {@code right} through buckets [from, to] (broken buckets, or
     * short pieces): a line S from {@code left} at knot k1 to {@code right} at knot k2, of at most
     * {@link #MAX_SLEW_RATE}, such that the continuous function left → S → right fits every
     * message of the buckets around (a kink pair). The knots are tried on a grid of
     * {@link #KNOT_GRID} per bucket and at the buckets' hull vertices (where a kink that a hull
     * edge would hide is checked exactly), from the bucket before {@code from} to the one after
     * {@code to}, and the first (second) knot also in up to {@link #SLEW_BACK}
     * ({@link #SLEW_AHEAD}) more buckets of {@code left} ({@code right}), each set of candidates
     * thinned to {@link #MAX_KNOT_CANDIDATES} apart. Every chain that fits is consistent with the messages,
     * the true one among them when the clocks follow left and right outside the slew; the one
     * keeping the messages farthest away (leximin of the gaps) is taken. When none fits, a grid
     * {@value #FINE_STEPS} times finer is searched around the pair that came nearest. Null when none fits: a step (an offset
     * jump only a faster change explains), or no slew. Moves {@code right}'s start to k2. O(c² ·
     * h) for c candidate knots ({@link #MAX_KNOT_CANDIDATES} at most).
     */
    private static Piece slew(Piece left, Piece right, int from, int to, List<Bucket> b, TimeBuckets tb, long x0,
                              double maxSlewRate) {
        if (from > to + 1 || right.first <= to) {
            return null;
        }
        long w = tb.width();
        int zf = Math.max(left.first, from - 1);
        int zt = Math.min(right.last, to + 1);
        long lower = Math.max(tb.startU(b.get(zf).key()), left.cut - x0 + 1);
        long upper = tb.startU(b.get(zt).key()) + w;
        long[] candidates = knotCandidates(b, zf, zt, tb, lower, upper);
        // every chain that fits is consistent with the messages (the true one among them: its
        // messages keep at least the minimum latencies from it); take the one that keeps the
        // messages of the buckets around farthest away, in the leximin order: the largest
        // smallest gap, then the largest second smallest, and so on (the chain in the middle of
        // the corridor, which tight messages elsewhere in the buckets do not decide)
        Search search = new Search(left, right, b, zf, zt, maxSlewRate);
        search.run(candidates, candidates);
        if (search.best == null && search.nearK2 > search.nearK1) {
            // none fits on the coarse grid: a finer one around the pair that came nearest
            long spacing = Math.max(1, (upper - lower) / Math.max(1, candidates.length));
            search.run(around(search.nearK1, spacing, lower, upper), around(search.nearK2, spacing, lower, upper));
        }
        if (search.best == null && maxSlewRate != NO_SLEW_RATE_BOUND) {
            // with a slew-rate bound, a chain within it may need knots beyond the window (at a few
            // messages per second the pieces run a second or two into a slew): the window widened
            // on both sides as below, every pair searched (only with a bound: without one, a
            // search that finds nothing here concludes as before)
            Wider wide = widen(left, right, b, tb, x0, zf, zt, lower, upper, candidates,
                    Math.max(left.first, zf - SLEW_BACK), Math.min(right.last, zt + SLEW_AHEAD), maxSlewRate);
            if (wide != null) {
                Search wider = wide.search();
                wider.run(wide.k1s(), wide.k2s());
                if (wider.best == null && wider.nearK2 > wider.nearK1) {
                    long spacing = Math.max(1, (wide.highest() - wide.lowest())
                            / Math.max(1, Math.max(wide.k1s().length, wide.k2s().length)));
                    wider.run(around(wider.nearK1, spacing, wide.lowest(), wide.highest()),
                            around(wider.nearK2, spacing, wide.lowest(), wide.highest()));
                }
                if (wider.best != null) {
                    return slewPiece(left, right, from, to, x0, wider.bestK1, wider.bestK2);
                }
            }
        }
        if (search.best == null) {
            return null;
        }
        // the chain taken leaves the left line in the window's first bucket, or joins the right
        // one in its last: at a few messages per second the greedy scan's pieces run a second or
        // two into a slew (a line still fits their sparse messages there), so the slew's corner
        // may lie beyond the window. Then the window is widened on that side, by up to SLEW_BACK
        // buckets of the left piece (SLEW_AHEAD of the right one). The old chains keep their order
        // there (their gaps in the added buckets, which they leave to the pieces' lines, are
        // common to all of them), so the first choice stands for all of them: it is offered
        // first, and only the pairs that involve an added candidate are searched; the choice
        // changes only for a new chain that keeps the messages farther away
        int zb = search.bestK1 < tb.startU(b.get(zf).key()) + w ? Math.max(left.first, zf - SLEW_BACK) : zf;
        int za = search.bestK2 >= tb.startU(b.get(zt).key()) ? Math.min(right.last, zt + SLEW_AHEAD) : zt;
        Wider wide = widen(left, right, b, tb, x0, zf, zt, lower, upper, candidates, zb, za, maxSlewRate);
        if (wide != null) {
            Search wider = wide.search();
            wider.offer(search.bestK1, search.bestK2);
            wider.run(wide.k1s(), wide.k2s(), wide.k1s().length - candidates.length, candidates.length);
            if (wider.best != null) {
                search = wider;
            }
        }
        return slewPiece(left, right, from, to, x0, search.bestK1, search.bestK2);
    }

    /**
     * A slew's knot window [zf, zt] (knots in (lower, upper), {@code candidates} on it) widened to
     * buckets [zb, za] (zb ≤ zf, za ≥ zt; see {@link #SLEW_BACK}): the first knot's candidates with
     * the added buckets' before the old ones, the second's after them, the knots' range, and a
     * search over the wider window. Null when nothing is added on either side.
     */
    private static Wider widen(Piece left, Piece right, List<Bucket> b, TimeBuckets tb, long x0, int zf, int zt,
                               long lower, long upper, long[] candidates, int zb, int za, double maxSlewRate) {
        long lowerBack = Math.max(tb.startU(b.get(zb).key()), left.cut - x0 + 1);
        long upperAhead = tb.startU(b.get(za).key()) + tb.width();
        boolean back = zb < zf && lowerBack < lower;
        boolean ahead = za > zt;
        if (!back && !ahead) {
            return null;
        }
        long[] k1s = back ? concat(knotCandidates(b, zb, zf - 1, tb, lowerBack, lower), candidates) : candidates;
        long[] k2s = ahead ? concat(candidates, knotCandidates(b, zt + 1, za, tb, upper - 1, upperAhead)) : candidates;
        return new Wider(new Search(left, right, b, back ? zb : zf, za, maxSlewRate), k1s, k2s,
                back ? lowerBack : lower, ahead ? upperAhead : upper);
    }

    /** See {@link #widen}. */
    private record Wider(Search search, long[] k1s, long[] k2s, long lowest, long highest) {
    }

    /** The slew's line from {@code left} at bestK1 to {@code right} at bestK2, {@code right} moved to start there. */
    private static Piece slewPiece(Piece left, Piece right, int from, int to, long x0, long bestK1, long bestK2) {
        Piece slew = new Piece();
        slew.uk = bestK1;
        slew.vk = left.at(bestK1);
        slew.d = (right.at(bestK2) - slew.vk) / (double) (bestK2 - bestK1);
        slew.cut = x0 + bestK1;
        slew.start = Start.CONTINUOUS;
        slew.first = from;
        slew.last = to;
        slew.bridge = true;
        slew.slew = true;
        right.vk = right.at(bestK2);
        right.uk = bestK2;
        right.cut = x0 + bestK2;
        right.start = Start.CONTINUOUS;
        return slew;
    }

    /**
     * The search for a slew's knots: over pairs of candidate knots (k1 &lt; k2), the chain
     * left → S → right that fits and keeps the messages of buckets [zf, zt] farthest away in the
     * leximin order (the largest smallest gap, then the second smallest, …), and the pair that
     * came nearest to fitting (largest smallest gap at the hull vertices) when none fits.
     *
     * <p>The vertices of [zf, zt] are sorted by u once, with their gaps to {@code left} and to
     * {@code right} (which do not depend on the knots) and those gaps' prefix and suffix minima:
     * a pair's smallest gap is then the left minimum before k1, the right minimum from k2 and the
     * gaps to S between them, computed on the vertices of [k1, k2) only. Every gap is the same
     * double as checking every vertex against its line computes (the same expression on the same line), so the choice is
     * the same: a pair is passed over only when its smallest gap is below a threshold under which
     * it can change nothing (below min(0, nearest) while no chain fits; below the best chain's
     * smallest gap once one does, when the nearest pair no longer matters). O(c² · h) worst case
     * for c candidate knots, O(c² + c · h) when the left or right minimum rules pairs out.
     */
    private static final class Search {
        final Piece left;
        final Piece right;
        /** Largest |S's drift − left's| (infinite without a slew-rate bound). */
        final double maxRelative;
        final List<Bucket> b;
        final int zf;
        final int zt;
        final double[] gaps;
        /** The vertices of buckets [zf, zt] sorted by u: abscissa, ordinate, whether a → b (the function stays below). */
        final long[] su;
        final long[] sv;
        final boolean[] sBelow;
        /** prefLeft[i]: the smallest gap to left of sorted vertices [0, i); sufRight[i]: to right of [i, n). */
        final double[] prefLeft;
        final double[] sufRight;
        double[] best;
        long bestK1;
        long bestK2;
        double near = Double.NEGATIVE_INFINITY;
        long nearK1;
        long nearK2;

        Search(Piece left, Piece right, List<Bucket> b, int zf, int zt, double maxSlewRate) {
            this.maxRelative = maxSlewRate + SLEW_RATE_SLACK;
            this.left = left;
            this.right = right;
            this.b = b;
            this.zf = zf;
            this.zt = zt;
            int n = countPoints(b, zf, zt);
            this.gaps = new double[n];
            long[] u = new long[n];
            long[] v = new long[n];
            boolean[] below = new boolean[n];
            int k = 0;
            for (int z = zf; z <= zt; z++) {
                Bucket bucket = b.get(z);
                for (int m = 0; m < bucket.pu().length; m++, k++) {
                    u[k] = bucket.pu()[m];
                    v[k] = bucket.pv()[m];
                    below[k] = true;
                }
                for (int m = 0; m < bucket.qu().length; m++, k++) {
                    u[k] = bucket.qu()[m];
                    v[k] = bucket.qv()[m];
                    below[k] = false;
                }
            }
            int[] order = orderByU(b, zf, zt, u);
            su = new long[n];
            sv = new long[n];
            sBelow = new boolean[n];
            for (int i = 0; i < n; i++) {
                su[i] = u[order[i]];
                sv[i] = v[order[i]];
                sBelow[i] = below[order[i]];
            }
            prefLeft = new double[n + 1];
            sufRight = new double[n + 1];
            prefLeft[0] = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                prefLeft[i + 1] = Math.min(prefLeft[i], gap(left, i));
            }
            sufRight[n] = Double.POSITIVE_INFINITY;
            for (int i = n - 1; i >= 0; i--) {
                sufRight[i] = Math.min(sufRight[i + 1], gap(right, i));
            }
        }

        /** Sorted vertex i's distance to {@code line}, on its side. */
        private double gap(Piece line, int i) {
            return sBelow[i] ? sv[i] - line.at(su[i]) : line.at(su[i]) - sv[i];
        }

        /** The first sorted vertex at or right of {@code k}. */
        private int lowerBound(long k) {
            int lo = 0;
            int hi = su.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (su[mid] < k) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** Below this smallest gap a pair changes nothing (see the class comment). */
        private double threshold() {
            double stop = Math.min(0, near);
            return best == null ? stop : Math.max(stop, best[0]);
        }

        void run(long[] k1s, long[] k2s) {
            run(k1s, k2s, k1s.length, 0);
        }

        /**
         * Searches the pairs of {@code k1s} × {@code k2s} but those of {@code k1s[oldFrom…]} ×
         * {@code k2s[…oldTo)} (the pairs an earlier search over a narrower window has tried; see
         * {@link #offer}).
         */
        void run(long[] k1s, long[] k2s, int oldFrom, int oldTo) {
            Piece s = new Piece();
            Piece[] chain = {left, s, right};
            for (int x = 0; x < k1s.length; x++) {
                long k1 = k1s[x];
                double v1 = left.at(k1);
                int i1 = lowerBound(k1);
                if (prefLeft[i1] < threshold()) {
                    continue; // every pair with this k1 is ruled out before k1
                }
                for (int y = x < oldFrom ? 0 : oldTo; y < k2s.length; y++) {
                    long k2 = k2s[y];
                    if (k2 <= k1) {
                        continue;
                    }
                    s.uk = k1;
                    s.vk = v1;
                    s.d = (right.at(k2) - v1) / (double) (k2 - k1);
                    if (Math.abs(s.d) > MAX_SLEW_RATE || Math.abs(s.d - left.d) > maxRelative) {
                        continue;
                    }
                    double stop = threshold();
                    int i2 = lowerBound(k2);
                    double min = Math.min(prefLeft[i1], sufRight[i2]);
                    if (min < stop) {
                        continue;
                    }
                    for (int i = i1; i < i2 && min >= stop; i++) {
                        min = Math.min(min, gap(s, i));
                    }
                    if (min < stop) {
                        continue; // below the nearest while none fits, or below the best: changes nothing
                    }
                    long[] knots = {k1, k2};
                    if (min < 0 || !sides(b, zf - 1, zt + 1, knots, chain)) {
                        if (min > near) {
                            near = min;
                            nearK1 = k1;
                            nearK2 = k2;
                        }
                        continue;
                    }
                    take(k1, k2, i1, i2, s);
                }
            }
        }

        /**
         * Takes the chain through knots k1 &lt; k2 as the best when it fits and none is yet (the
         * chain an earlier search over a narrower window chose, whose order among that search's
         * chains the wider window keeps: see {@link #slew}).
         */
        void offer(long k1, long k2) {
            Piece s = new Piece();
            s.uk = k1;
            s.vk = left.at(k1);
            s.d = (right.at(k2) - s.vk) / (double) (k2 - k1);
            if (best == null && sides(b, zf - 1, zt + 1, new long[] {k1, k2}, new Piece[] {left, s, right})) {
                take(k1, k2, lowerBound(k1), lowerBound(k2), s);
            }
        }

        /** The chain left → s (from k1) → right (from k2) as the best if its gaps are leximin-larger. */
        private void take(long k1, long k2, int i1, int i2, Piece s) {
            for (int i = 0; i < gaps.length; i++) {
                gaps[i] = gap(i < i1 ? left : i < i2 ? s : right, i);
            }
            Arrays.sort(gaps);
            if (best == null || Arrays.compare(gaps, best) > 0) {
                best = gaps.clone();
                bestK1 = k1;
                bestK2 = k2;
            }
        }
    }

    /** Knots in steps of spacing / {@value #FINE_STEPS} · 2 within ± spacing of {@code k}, inside (lower, upper). */
    private static long[] around(long k, long spacing, long lower, long upper) {
        long[] out = new long[2 * FINE_STEPS + 1];
        int n = 0;
        for (int i = -FINE_STEPS; i <= FINE_STEPS; i++) {
            long u = k + spacing * i / FINE_STEPS;
            if (u > lower && u < upper && (n == 0 || out[n - 1] != u)) {
                out[n++] = u;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** Steps each side of a knot in the fine search. */
    private static final int FINE_STEPS = 20;

    /** Candidate knots of a slew, at most this many (evenly thinned beyond). */
    private static final int MAX_KNOT_CANDIDATES = 256;

    /** Candidate knots per bucket besides its hull vertices: a regular grid of this many. */
    private static final int KNOT_GRID = 40;

    /** A grid of {@link #KNOT_GRID} per bucket and the hull vertex abscissae of buckets [from, to] inside (lower, upper), sorted, distinct. */
    private static long[] knotCandidates(List<Bucket> b, int from, int to, TimeBuckets tb, long lower, long upper) {
        long[] c = new long[KNOT_GRID * (to - from + 2) + 2 * countPoints(b, from, to)];
        int n = 0;
        for (int k = from; k <= to + 1; k++) {
            long start = k <= to ? tb.startU(b.get(k).key()) : tb.startU(b.get(to).key()) + tb.width();
            for (int g = 0; g < (k <= to ? KNOT_GRID : 1); g++) {
                c[n++] = start + g * (tb.width() / KNOT_GRID);
            }
        }
        for (int k = from; k <= to; k++) {
            for (long u : b.get(k).pu()) {
                c[n++] = u;
            }
            for (long u : b.get(k).qu()) {
                c[n++] = u;
            }
        }
        Arrays.sort(c, 0, n);
        int m = 0;
        for (int k = 0; k < n; k++) {
            if (c[k] > lower && c[k] < upper && (m == 0 || c[m - 1] != c[k])) {
                c[m++] = c[k];
            }
        }
        if (m <= MAX_KNOT_CANDIDATES) {
            return Arrays.copyOf(c, m);
        }
        long[] thin = new long[MAX_KNOT_CANDIDATES];
        for (int k = 0; k < thin.length; k++) {
            thin[k] = c[(int) ((long) k * (m - 1) / (thin.length - 1))];
        }
        return thin;
    }

    /**
     * True when the function that follows {@code lines[0]} before {@code knots[0]},
     * {@code lines[i]} on [knots[i − 1], knots[i]) and the last line after lies on or below every
     * a → b point and on or above every b → a point of buckets [from, to] (clamped). Each bucket's
     * hull is a polyline below (above) all its points, and the function is linear between the
     * knots, so checking the hull vertices and both lines at each knot inside the hull's span is
     * exact for the polyline, hence sufficient for the points. O(h · knots) per bucket.
     */
    private static boolean sides(List<Bucket> b, int from, int to, long[] knots, Piece[] lines) {
        return slack(b, from, to, knots, lines) >= 0;
    }

    /**
     * The smallest distance (ns) between that function and the buckets' hull polylines, on the
     * side each message must keep: negative when some hull vertex or knot is on the wrong side
     * (then not the smallest, the first found). Same checks as {@link #sides}.
     */
    private static double slack(List<Bucket> b, int from, int to, long[] knots, Piece[] lines) {
        double min = Double.POSITIVE_INFINITY;
        for (int k = Math.max(0, from); k <= Math.min(b.size() - 1, to); k++) {
            Bucket bucket = b.get(k);
            min = Math.min(min, side(bucket.pu(), bucket.pv(), knots, lines, true));
            if (min < 0) {
                return min;
            }
            min = Math.min(min, side(bucket.qu(), bucket.qv(), knots, lines, false));
            if (min < 0) {
                return min;
            }
        }
        return min;
    }

    private static double side(long[] us, long[] vs, long[] knots, Piece[] lines, boolean below) {
        double min = Double.POSITIVE_INFINITY;
        for (int n = 0; n < us.length; n++) {
            int i = 0;
            while (i < knots.length && us[n] >= knots[i]) {
                i++;
            }
            double gap = below ? vs[n] - lines[i].at(us[n]) : lines[i].at(us[n]) - vs[n];
            if (gap < 0) {
                return gap;
            }
            min = Math.min(min, gap);
        }
        for (int i = 0; i < knots.length; i++) {
            long kn = knots[i];
            if (us.length < 2 || kn <= us[0] || kn >= us[us.length - 1]) {
                continue;
            }
            int j = 0;
            while (us[j + 1] < kn) {
                j++;
            }
            double h = vs[j] + (double) (vs[j + 1] - vs[j]) * (double) (kn - us[j]) / (double) (us[j + 1] - us[j]);
            for (Piece line : new Piece[] {lines[i], lines[i + 1]}) {
                double gap = below ? h - line.at(kn) : line.at(kn) - h;
                if (gap < 0) {
                    return gap;
                }
                min = Math.min(min, gap);
            }
        }
        return min;
    }

    /** Buckets on each side of a boundary a bridge may span, at most. */
    private static final int MAX_BRIDGE = 3;

    /**
     * Joins {@code right} to {@code left} continuously by a bridge piece from {@code left}'s line at
     * the start of one of its last buckets to {@code right}'s line at the end of one of its first
     * buckets (1 … {@link #MAX_BRIDGE} each side, shortest first). Knots stay on bucket boundaries,
     * so every bucket follows one line and checking its hull vertices is exact. Adds the bridge
     * to {@code out}; false when no bridge fits. O(MAX_BRIDGE² · h).
     */
    private static boolean join(Piece left, Piece right, List<Bucket> b, TimeBuckets tb, long x0, List<Piece> out) {
        long w = tb.width();
        for (int s = 2; s <= 2 * MAX_BRIDGE; s++) {
          for (int sl = Math.max(1, s - MAX_BRIDGE); sl <= Math.min(MAX_BRIDGE, s - 1); sl++) {
            int lb = left.last - sl + 1;
            int rb = right.first + (s - sl) - 1;
            if (lb <= left.first || rb >= right.last) {
                continue; // a bridge must leave both pieces a bucket of their own
            }
            long uL = tb.startU(b.get(lb).key());
            long uR = tb.startU(b.get(rb).key()) + w;
            if (uL <= left.cut - x0) {
                continue; // left would keep no segment of its own (its start moved by an earlier bridge)
            }
            Piece bridge = new Piece();
            bridge.uk = uL;
            bridge.vk = left.at(uL);
            bridge.d = (right.at(uR) - bridge.vk) / (double) (uR - uL);
            if (!fasterThanASlew(bridge) && fits(b, lb, rb, left, bridge, uR, right, uR)) {
                bridge.start = Start.CONTINUOUS;
                bridge.cut = x0 + uL;
                bridge.first = lb;
                bridge.last = rb;
                bridge.bridge = true;
                out.add(bridge);
                right.vk = right.at(uR);
                right.uk = uR;
                right.cut = x0 + uR;
                right.start = Start.CONTINUOUS;
                return true;
            }
          }
        }
        return false;
    }

    /**
     * A line faster than any slew ({@link #MAX_SLEW_RATE}) joins no pieces: an offset jump only a
     * faster change explains is a step (classified as one when the pieces' bounds prove it, else a
     * break), as in {@link #slew}. Before, a bridge over two one-second buckets took a 4.1 ms
     * backward step for a 2,048 ppm line at 2 messages/s, and the step went unreported.
     */
    private static boolean fasterThanASlew(Piece line) {
        return Math.abs(line.d) > MAX_SLEW_RATE;
    }

    /**
     * True when every hull point of buckets [from, to] lies on its side of the function that
     * follows {@code left} before {@code bridge.uk}, {@code bridge} up to {@code end}, and
     * {@code right} from there on.
     */
    private static boolean fits(List<Bucket> b, int from, int to, Piece left, Piece bridge, long end, Piece right,
                                long unused) {
        for (int k = from; k <= to; k++) {
            Bucket bucket = b.get(k);
            for (int n = 0; n < bucket.pu().length; n++) {
                long u = bucket.pu()[n];
                Piece f = u < bridge.uk ? left : u < end ? bridge : right;
                if (f.at(u) > bucket.pv()[n]) {
                    return false;
                }
            }
            for (int n = 0; n < bucket.qu().length; n++) {
                long u = bucket.qu()[n];
                Piece f = u < bridge.uk ? left : u < end ? bridge : right;
                if (f.at(u) < bucket.qv()[n]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** True when one line fits the bucket on its own (or it has messages in one direction only). */
    private static boolean feasible(Bucket bucket) {
        return bucket.pu().length == 0 || bucket.qu().length == 0
                || !new FeasibleRegion(bucket.pu(), bucket.pv(), bucket.qu(), bucket.qv()).isEmpty();
    }

    /** The longest piece from bucket i fitted on its own (bisector), growing no further than bucket {@code limit}. */
    private static Piece free(BucketBlocks b, int i, int limit, TimeBuckets tb, Piece prev) {
        return free(b, i, limit, tb, prev, MARGIN);
    }

    /**
     * Same, keeping {@code margin} ns from the messages (halved until bucket i alone admits it,
     * then 0); null when it is one-way.
     */
    private static Piece free(BucketBlocks blocks, int i, int limit, TimeBuckets tb, Piece prev, long wanted) {
        List<Bucket> b = blocks.buckets();
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        long margin = wanted;
        addVertices(p, q, b.get(i), margin);
        while (margin > 0 && !p.isEmpty() && !q.isEmpty()
                && new FeasibleRegion(p.us(), p.vs(), q.us(), q.vs()).isEmpty()) {
            margin = margin > MARGIN ? margin / 2 : 0; // a bucket whose own corridor is narrower than the margin
            p = new HalfHull(HalfHull.Side.LOWER);
            q = new HalfHull(HalfHull.Side.UPPER);
            addVertices(p, q, b.get(i), margin);
        }
        // the growth by one bucket at a time is one method, called at one place: compiled on its
        // own, once, instead of inlined here (with its hull pushes and region) into both of this
        // method's compilations, the normal one and the one of this loop (on-stack replacement):
        // 6.8 KB of inlined bytecode instead of 19.3 KB on the wandering 24 h file
        // a block of buckets whose hull vertices the witness clears goes in at once (the witness
        // then clears each of its points: the smallest gap to a line is at a hull vertex); else
        // a smaller block, else one bucket with its region test. The piece ends at the first
        // bucket whose region is empty, as bucket by bucket: the same piece, the same hulls
        Growth growth = new Growth(p, q, margin);
        int j = i + 1;
        while (j <= limit) {
            int l = growth.hasWitness() ? blocks.largestLevelAt(j, limit) : -1;
            while (l >= 0 && !growth.clears(blocks.block(l, j))) {
                l--;
            }
            if (l >= 0) {
                growth.addCleared(blocks.block(l, j));
                j += BucketBlocks.size(l);
            } else if (growth.extend(b.get(j))) {
                j++;
            } else {
                break;
            }
        }
        p = growth.p;
        q = growth.q;
        return fitted(b, i, j - 1, tb, prev, p, q, margin);
    }

    /**
     * {@link #free}{@code (b, start, end, tb, whole)} for a run of buckets inside {@code whole}, a
     * piece of {@link #free} that kept {@link #MARGIN} ({@link #subdivide}): every line of the whole
     * piece's region keeps MARGIN from the run's messages too, so free would keep MARGIN, grow to
     * {@code end} (each prefix's region holds the whole piece's, exactly) and fit the region of
     * the run's hulls. Those hulls are pushed here directly, without free's growth tests (a region
     * per bucket its witness does not clear): the same hulls, the same piece. O(run's vertices).
     */
    private static Piece run(BucketBlocks blocks, int start, int end, TimeBuckets tb, Piece whole) {
        List<Bucket> b = blocks.buckets();
        if (whole.hullP == null || whole.hullMargin != MARGIN || start < whole.first || end > whole.last
                || whole.hullP.isEmpty() || whole.hullQ.isEmpty()) {
            return free(blocks, start, end, tb, whole);
        }
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        blocks.addRange(p, q, start, end, MARGIN);
        return fitted(b, start, end, tb, whole, p, q, MARGIN);
    }

    /**
     * The piece of buckets [first, last] whose messages, moved {@code margin} inward, have the
     * half hulls p and q (a feasible region when both are non-empty): the bisector of that region,
     * or when it does not bound the drift the feasible line whose drift is nearest {@code prev}'s
     * (0 for a first piece); null when one side is empty.
     */
    private static Piece fitted(List<Bucket> b, int first, int last, TimeBuckets tb, Piece prev, HalfHull p,
                                HalfHull q, long margin) {
        if (p.isEmpty() || q.isEmpty()) {
            return null;
        }
        FeasibleRegion f = new FeasibleRegion(p.us(), p.vs(), q.us(), q.vs());
        double d;
        double c;
        double spread = Double.POSITIVE_INFINITY;
        if (f.isBounded()) {
            double d1 = f.dMin().toDouble();
            double d2 = f.dMax().toDouble();
            double w1 = Math.sqrt(1 + (1 + d1) * (1 + d1));
            double w2 = Math.sqrt(1 + (1 + d2) * (1 + d2));
            d = (w2 * d1 + w1 * d2) / (w1 + w2);
            c = (w2 * f.cAtDMin() + w1 * f.cAtDMax()) / (w1 + w2);
            spread = d2 - d1;
        } else {
            // unbounded in drift (a short piece): the feasible line with the drift closest to the
            // previous piece's (or to 0 for a first piece)
            double lo = f.dMin().isFinite() ? f.dMin().toDouble() : Double.NEGATIVE_INFINITY;
            double hi = f.dMax().isFinite() ? f.dMax().toDouble() : Double.POSITIVE_INFINITY;
            d = Math.max(lo, Math.min(hi, prev == null ? 0.0 : prev.d));
            c = 0.5 * (f.g(d) + f.h(d));
        }
        Piece piece = new Piece();
        piece.first = first;
        piece.last = last;
        piece.uk = tb.startU(b.get(first).key());
        piece.d = d;
        piece.vk = c + d * (double) piece.uk;
        piece.spread = spread;
        piece.hullP = p;
        piece.hullQ = q;
        piece.hullMargin = margin;
        return piece;
    }

    /**
     * A piece of {@link #free} while it grows: its two hulls, a second pair reused (swapped) to try
     * the next bucket, and a witness line of its region with more than {@link #WITNESS_SLACK} to
     * spare (NaN: none known): a bucket the witness clears keeps the region non-empty and is added
     * without a region of its own.
     */
    private static final class Growth {
        HalfHull p;
        HalfHull q;
        HalfHull p2 = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q2 = new HalfHull(HalfHull.Side.UPPER);
        final long margin;
        double wc = Double.NaN;
        double wd = Double.NaN;

        Growth(HalfHull p, HalfHull q, long margin) {
            this.p = p;
            this.q = q;
            this.margin = margin;
        }

        /** Whether a witness line is known (else {@link #clears} is false for every block). */
        boolean hasWitness() {
            return wd == wd;
        }

        /**
         * Whether the witness keeps more than {@link #WITNESS_SLACK} from every vertex of
         * {@code block} (a bucket, or a {@link BucketBlocks} block) moved margin inward: then it
         * does from every point of its buckets (a point's gap to a line is at least its hull's
         * smallest, taken at a vertex), and the region with the block stays non-empty.
         *
         * <p>The smallest gap, by Math.min over every vertex, and one test after the loops: no
         * branch on each vertex's gap, whose rare side (a vertex the witness does not clear, now
         * on one side of the pair, now on the other) the JIT had compiled as a trap, then
         * recompiled the whole growth step when it came. Without a witness (wd NaN) the gaps and
         * the start value are NaN, and NaN &gt; slack is false (also for a block without
         * vertices). No gap is NaN with a witness (wc, wd finite), so "smallest gap &gt; slack"
         * is "every gap &gt; slack".
         */
        boolean clears(Bucket block) {
            double smallest = wd * 0.0 + Double.POSITIVE_INFINITY;
            for (int k = 0; k < block.pu().length; k++) {
                smallest = Math.min(smallest, (double) (block.pv()[k] - margin) - (wc + wd * (double) block.pu()[k]));
            }
            for (int k = 0; k < block.qu().length; k++) {
                smallest = Math.min(smallest, (wc + wd * (double) block.qu()[k]) - (double) (block.qv()[k] + margin));
            }
            return smallest > WITNESS_SLACK;
        }

        /** Adds a block that {@link #clears} (no region: the witness keeps it non-empty). */
        void addCleared(Bucket block) {
            addVertices(p, q, block, margin);
        }

        /** Adds {@code bucket} to the piece when its region stays non-empty; false (piece unchanged) when it would not. */
        boolean extend(Bucket bucket) {
            // the witness clears the bucket (as a block: clears), or the region decides; this
            // method stays above C2's size for inlining a hot call (the launcher's FreqInlineSize,
            // 250 bytes of bytecode), so that it is compiled once, on its own
            boolean cleared = clears(bucket);
            HalfHull tp = p;
            HalfHull tq = q;
            if (!cleared) {
                p2.copyOf(p);
                q2.copyOf(q);
                tp = p2;
                tq = q2;
            }
            addVertices(tp, tq, bucket, margin);
            if (cleared) {
                return true;
            }
            if (!p2.isEmpty() && !q2.isEmpty()) {
                FeasibleRegion f2 = new FeasibleRegion(p2.us(), p2.vs(), q2.us(), q2.vs());
                if (f2.isEmpty()) {
                    return false;
                }
                wd = Double.NaN;
                if (f2.isBounded()) {
                    double d = 0.5 * (f2.dMin().toDouble() + f2.dMax().toDouble());
                    double g = f2.g(d);
                    double h = f2.h(d);
                    // a witness only when its corridor is wider than 2·WITNESS_SLACK, without a
                    // branch: the narrow case is rare, and the JIT, having compiled this method
                    // before seeing it, recompiled the whole of it (its hulls' pushes and region
                    // walk inlined, 4–7 KB) the first time it came. wc is read only with wd
                    wc = 0.5 * (g + h);
                    wd = witnessDrift(d, g - h - 2 * WITNESS_SLACK);
                }
            }
            HalfHull swap = p;
            p = p2;
            p2 = swap;
            swap = q;
            q = q2;
            q2 = swap;
            return true;
        }
    }

    /**
     * Slack (ns) a witness line keeps from every point in {@link #free}, far above the double
     * rounding of its evaluation (below 10⁻⁵ ns at the coordinates of a year of trace), so that
     * "the witness clears every point" proves the region non-empty, as the exact region would.
     */
    private static final double WITNESS_SLACK = 1.0;

    /**
     * {@code d} when {@code room > 0}, else NaN (no witness), with no branch: 0 / (a positive
     * number) is 0 and d + 0 is d (a −0 drift becomes +0, the same line); 0 / max(0, room) is
     * 0 / 0, NaN, when room ≤ 0, and NaN when room is (g, h of an empty side are infinite).
     */
    static double witnessDrift(double d, double room) {
        return d + 0.0 / Math.max(0.0, room);
    }

    /**
     * Clearance kept between a fitted piece's line and every message (ns): pieces grow only while
     * the hulls, each moved {@code MARGIN} toward the other, still admit a line, and the line is
     * the bisector of that narrower region. Without it a maximal piece's region is a sliver and
     * its line grazes a message (0 ns latency, which double rounding can invert).
     */
    static final long MARGIN = 100;

    /**
     * Adds a bucket's (or a {@link BucketBlocks} block's) vertices, each moved {@code margin} toward
     * the other side, to p and q.
     */
    static void addVertices(HalfHull p, HalfHull q, Bucket bucket, long margin) {
        for (int k = 0; k < bucket.pu().length; k++) {
            p.addFromSpan(bucket.pu()[k], bucket.pv()[k] - margin);
        }
        for (int k = 0; k < bucket.qu().length; k++) {
            q.addFromSpan(bucket.qu()[k], bucket.qv()[k] + margin);
        }
    }

    /**
     * Bounds of a piece: Poirier's envelope of its own feasible region, relaxed by the piece's
     * curvature allowance ε. If the clock stays within ε of some line ℓ over the piece, ℓ keeps
     * every message within ε of its side, so ℓ lies in the region of the hulls moved ε apart,
     * and the clock within ε of that region's envelope: [L_ε − ε, U_ε + ε] (ε rounded up to ns).
     * With ε = 0 these are the strict bounds of a linear clock.
     */
    private static void bounds(Piece p, List<Bucket> b, BucketBlocks blocks, long x0, long v0) {
        long e = (long) Math.ceil(p.epsilon);
        // the piece's two half hulls straight from its buckets' vertices (buckets in time order,
        // each sorted by u: every push is in order), in the coordinates a PairAccumulator fed
        // those vertices as messages would take (origin at the first one added: the first
        // bucket's first a → b vertex, else its first b → a one). O(vertices), no time buckets
        Bucket head = b.get(p.first);
        long ox;
        long ov;
        if (head.pu().length > 0) {
            ox = head.pu()[0];
            ov = Math.addExact(head.pv()[0], e);
        } else if (head.qu().length > 0) {
            ox = head.qu()[0];
            ov = Math.subtractExact(head.qv()[0], e);
        } else {
            ox = 0;
            ov = 0;
        }
        HalfHull hp = new HalfHull(HalfHull.Side.LOWER);
        HalfHull hq = new HalfHull(HalfHull.Side.UPPER);
        if (p.hullP != null) {
            // the hulls free kept, moved (the same vertices as pushing every bucket's: see
            // exactRegion): O(h) instead of O(vertices)
            hp.addAllShifted(p.hullP, -ox, p.hullMargin + e - ov);
            hq.addAllShifted(p.hullQ, -ox, -p.hullMargin - e - ov);
        }
        // the loop over the piece's buckets in a method of its own: without a loop of its own this
        // method stays below the JIT's thresholds for C2 (one call per bound piece, 4,294 on the
        // wandering day), which compiled it, after the fit had ended, with the whole estimate of
        // a piece inlined (11 KB of bytecode, 0.6-1.2 s of C2). With the hulls kept and the
        // blocks' prefix counts, no loop at all: the first thousand or two bound pieces run
        // interpreted (the launcher's Tier3 thresholds), where a loop per piece cost the most
        long[] counts = p.hullP != null && blocks != null ? blocks.vertexCounts(p.first, p.last)
                : bucketVertices(p, b, hp, hq, ox, ov, e);
        long np = counts[0];
        long nq = counts[1];
        long minU = counts[2];
        long maxU = counts[3];
        PairAccumulator acc = np + nq == 0 ? new PairAccumulator(0, 1)
                : PairAccumulator.ofHulls(x0 + ox, v0 + ov, hp, hq, np, nq, x0 + minU, x0 + maxU);
        // the bounds of the pieces' one-line estimate when accurate (its mean width, line and
        // geometry are not read here)
        MonotoneBound[] accurate = ConvexHullEstimator.accurateBounds(acc);
        if (accurate != null) {
            p.lower = shifted(accurate[0], -e);
            p.upper = shifted(accurate[1], e);
            p.bounded = true;
        }
    }

    /**
     * For {@link #bounds}: the counts of a → b and b → a vertices of the piece's buckets, and the
     * smallest and largest u among them ({np, nq, minU, maxU}); when the piece kept no hulls of
     * its own, also pushes those vertices into hp and hq, moved by (−ox, ±e − ov).
     */
    private static long[] bucketVertices(Piece p, List<Bucket> b, HalfHull hp, HalfHull hq, long ox, long ov, long e) {
        long np = 0;
        long nq = 0;
        long minU = Long.MAX_VALUE;
        long maxU = Long.MIN_VALUE;
        for (int k = p.first; k <= p.last; k++) {
            Bucket bucket = b.get(k);
            long[] pu = bucket.pu();
            long[] qu = bucket.qu();
            if (p.hullP == null) {
                long[] pv = bucket.pv();
                long[] qv = bucket.qv();
                for (int n = 0; n < pu.length; n++) {
                    hp.addFromSpan(pu[n] - ox, pv[n] + e - ov);
                }
                for (int n = 0; n < qu.length; n++) {
                    hq.addFromSpan(qu[n] - ox, qv[n] - e - ov);
                }
            }
            np += pu.length;
            nq += qu.length;
            if (pu.length > 0) {
                minU = Math.min(minU, pu[0]);
                maxU = Math.max(maxU, pu[pu.length - 1]);
            }
            if (qu.length > 0) {
                minU = Math.min(minU, qu[0]);
                maxU = Math.max(maxU, qu[qu.length - 1]);
            }
        }
        return new long[] {np, nq, minU, maxU};
    }

    private static MonotoneBound shifted(MonotoneBound f, long by) {
        long[] t = new long[f.size()];
        long[] r = new long[f.size()];
        for (int k = 0; k < t.length; k++) {
            t[k] = f.t(k);
            r[k] = f.r(k) + by;
        }
        return new MonotoneBound(f.kind(), t, r, f.slopeLeft(), f.slopeRight());
    }

    /** Model error aimed at by {@link #subdivide}: the clock's sag below a piece's chord (ns). */
    static final double TARGET_SAG = 1_000;

    /** ε = this × the estimated sag of a piece (plus {@link #MIN_EPSILON}). */
    static final double SAG_SAFETY = 4.0;

    /** Floor of ε (ns): rounding and the residual curvature no neighbour shows. */
    static final double MIN_EPSILON = 50;

    /**
     * Curvature shown by two neighbouring pieces: their slope change beyond what their feasible
     * drift ranges allow (short pieces have wide ranges and show none), over the distance between
     * their middles. 0 across a jump of more than {@link #STEP_LIKE} ns (a step, not a bend).
     */
    private static double curvature(Piece left, Piece right, double distance) {
        long boundary = right.uk;
        if (Math.abs(left.at(boundary) - right.at(boundary)) > STEP_LIKE) {
            return 0;
        }
        double change = Math.abs(right.d - left.d) - 0.5 * (left.spread + right.spread);
        return change > 0 ? change / distance : 0;
    }

    /** Lines of neighbouring pieces further apart than this at their boundary meet at a step (ns). */
    static final double STEP_LIKE = 200_000;

    /**
     * Longest bound piece (ns): bounds assume the clock linear within a bound piece, and a kink
     * of the clock (an NTP rate correction of up to 2 ppm between two clocks) bends it by at most
     * 2 ppm × 32 s / 4 = 16 µs from its best line over 32 s, which the minimum latencies' slack
     * (tens of µs) absorbs; over the 10-minute pieces of a kinked clock it would not. Shorter
     * bound pieces cost bound width only where the data is sparse: half a minute of messages
     * pins the corridor nearly as well as an hour.
     */
    static final long MAX_BOUND_SPAN = 32_000_000_000L;

    /** A subdivided piece keeps at least this many buckets (bridges need room). */
    private static final int MIN_SUB_BUCKETS = 3;

    /**
     * Splits each greedy piece where the clock visibly curves (DESIGN §6: drift itself drifts):
     * curvature κ from the slope change to the neighbouring pieces over the distance between
     * their middles; a piece of span T sags κT²/8 below its chord, so it is cut into
     * ⌈√(κT²/8 / TARGET_SAG)⌉ equal runs of buckets, each fitted again (a subset of a feasible
     * piece is feasible). Each resulting piece gets ε = SAG_SAFETY · κT²/8 + MIN_EPSILON for its
     * bounds. The greedy count stays the feasibility minimum; the extra pieces buy accuracy and
     * honest bounds on curving clocks, and cost nothing on clocks that only kink (κ ≈ 0 away
     * from a kink). A run that fits no line on its own (messages one way only, or too few to fix
     * a drift: a one-way bucket narrows no corridor, so a greedy piece runs on through a one-way
     * stretch) joins the next run, the last one the run before it, so the bound pieces still tile
     * the greedy piece in order; the longer run's ε follows its longer span.
     */
    private static List<Piece> subdivide(List<Piece> pieces, BucketBlocks blocks, TimeBuckets tb, List<Integer> brokenBefore,
                                         List<Integer> subBrokenBefore) {
        List<Bucket> b = blocks.buckets();
        int n = pieces.size();
        double[] mid = new double[n];
        double[] span = new double[n];
        for (int k = 0; k < n; k++) {
            Piece p = pieces.get(k);
            long from = tb.startU(b.get(p.first).key());
            long to = tb.startU(b.get(p.last).key()) + tb.width();
            mid[k] = 0.5 * ((double) from + (double) to);
            span[k] = (double) (to - from);
        }
        List<Piece> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            Piece p = pieces.get(k);
            double kappa = 0;
            if (k > 0 && brokenBefore.get(k) < 0) {
                kappa = Math.max(kappa, curvature(pieces.get(k - 1), p, mid[k] - mid[k - 1]));
            }
            if (k + 1 < n && brokenBefore.get(k + 1) < 0) {
                kappa = Math.max(kappa, curvature(p, pieces.get(k + 1), mid[k + 1] - mid[k]));
            }
            double sag = kappa * span[k] * span[k] / 8;
            int buckets = p.last - p.first + 1;
            int parts = (int) Math.min(Math.max(1, buckets / MIN_SUB_BUCKETS), Math.ceil(Math.sqrt(sag / TARGET_SAG)));
            // and no longer than MAX_BOUND_SPAN: a kink that the neighbours do not show stays small
            long maxBuckets = Math.max(MIN_SUB_BUCKETS, MAX_BOUND_SPAN / tb.width());
            parts = Math.max(Math.max(1, parts), (int) ((buckets + maxBuckets - 1) / maxBuckets));
            List<Piece> runs = new ArrayList<>(parts);
            int start = p.first;
            for (int s = 0; s < parts; s++) {
                int end = s == parts - 1 ? p.last : p.first + (int) ((long) buckets * (s + 1) / parts) - 1;
                Piece sub = parts == 1 ? p : run(blocks, start, end, tb, p);
                if (!fitsAlone(sub, end)) {
                    if (s < parts - 1) {
                        continue; // this run joins the next one: start stays
                    }
                    if (!runs.isEmpty()) {
                        // the last run joins the one before it
                        sub = run(blocks, runs.remove(runs.size() - 1).first, end, tb, p);
                    }
                    if (!fitsAlone(sub, end)) {
                        runs.clear();
                        sub = p; // the whole greedy piece: its messages bound its drift (checked by the caller)
                    }
                }
                runs.add(sub);
                start = end + 1;
            }
            for (int s = 0; s < runs.size(); s++) {
                Piece sub = runs.get(s);
                long from = tb.startU(b.get(sub.first).key());
                long to = tb.startU(b.get(sub.last).key()) + tb.width();
                double t = (double) (to - from);
                sub.epsilon = SAG_SAFETY * kappa * t * t / 8 + MIN_EPSILON;
                sub.start = p.start;
                out.add(sub);
                subBrokenBefore.add(s == 0 ? brokenBefore.get(k) : -1);
            }
        }
        return out;
    }

    /**
     * True when {@code sub} (fitted from its first bucket with {@code end} as its limit) reaches
     * {@code end} and its messages bound its drift: false for a run with messages one way only
     * (no piece) or too few to fix a drift (no strict bounds of its own).
     */
    private static boolean fitsAlone(Piece sub, int end) {
        return sub != null && sub.last == end && !Double.isInfinite(sub.spread);
    }

    /**
     * A piece that could not continue the previous one: a step when the two pieces' bound
     * intervals at the cut are disjoint by more than their widths together, else a break. A
     * transform piece whose messages do not bound its drift (a short one, at a few messages per
     * second) is judged by the bounds of the bound piece on its side of the cut.
     */
    private static void classify(Piece prev, Piece p, List<Bucket> hulls, List<Bucket> b, int firstAfter, long x0, long v0,
                                 TimeBuckets tb, List<Piece> boundPieces) {
        for (Piece piece : new Piece[] {prev, p}) {
            if (piece.boundsDue) {
                piece.boundsDue = false;
                bounds(piece, hulls, null, x0, v0);
            }
        }
        long cut = p.cut;
        long u = cut - x0;
        double before = prev.at(u);
        double after = p.at(u);
        // a transform piece too short to bound its drift takes the bounds of the bound piece on
        // its side of the cut
        Piece prevBounds = prev.bounded ? prev : boundPieceAt(boundPieces, cut - 1);
        Piece nextBounds = p.bounded ? p : boundPieceAt(boundPieces, cut);
        boolean bounded = prevBounds != null && nextBounds != null;
        double lp = before;
        double up = before;
        double ln = after;
        double un = after;
        if (bounded) {
            lp = prevBounds.lower.deltaAt(cut) - v0;
            up = prevBounds.upper.deltaAt(cut) - v0;
            ln = nextBounds.lower.deltaAt(cut) - v0;
            un = nextBounds.upper.deltaAt(cut) - v0;
        }
        double gap = Math.max(ln - up, lp - un);
        // a step is only claimed when both pieces have strict bounds that prove the jump
        if (bounded && gap > 0 && gap > (up - lp) + (un - ln)) {
            p.start = Start.STEP;
            long earliest = x0 + lastU(b.get(prev.last));
            long latest = x0 + firstU(b.get(p.first));
            long[] range = stepRange(prev, p, b, firstAfter, prevBounds, nextBounds, x0, v0);
            if (range != null) {
                earliest = x0 + range[0];
                latest = x0 + range[1];
                long placed = centredCut(prev, p, b, firstAfter, range, x0);
                if (placed != Long.MIN_VALUE) {
                    cut = x0 + placed;
                    p.cut = cut;
                    before = prev.at(placed);
                    after = p.at(placed);
                    lp = prevBounds.lower.deltaAt(cut) - v0;
                    up = prevBounds.upper.deltaAt(cut) - v0;
                    ln = nextBounds.lower.deltaAt(cut) - v0;
                    un = nextBounds.upper.deltaAt(cut) - v0;
                }
            }
            p.step = new ClockStep(cut, Math.min(earliest, cut), Math.max(latest, cut), after - before, ln - up, un - lp);
        }
    }

    /** The bounded bound piece holding a-time {@code t} (the last one starting at or before it), or null. */
    private static Piece boundPieceAt(List<Piece> pieces, long t) {
        Piece pick = null;
        for (Piece q : pieces) {
            if (q.cut <= t) {
                pick = q;
            }
        }
        return pick != null && pick.bounded ? pick : null;
    }

    /**
     * Where a step between {@code prev} and {@code next} can lie (u): after the last message only
     * the clock before the step explains (a hull vertex that {@code next}'s line puts on its
     * wrong side; searched back from {@code firstAfter} through {@code prev}'s buckets) and before
     * the first message only the clock after it explains (a vertex on the wrong side of
     * {@code prev}'s line; searched on through {@code next}'s). Every hull vertex between is
     * consistent with both lines, so the hulls cannot place the step more closely. A message that
     * only one line explains has a hull vertex of its bucket on the wrong side of the other line
     * no further from the step than itself (the hull edge below or above it is on the wrong side,
     * hence one of that edge's ends).
     *
     * <p>Either clock may be the one that stepped, and a vertex's u is the a-time of the message's
     * a end only: its b end happened a latency earlier (b → a) or later (a → b). So each vertex
     * counts at the earlier of its two ends for the start of the interval and at the later for
     * its end, the b end's a-time bounded with the strict bounds of the bound piece on its side
     * ({@code before}'s upper, {@code after}'s lower; {@link #endATime}). The interval then holds the step when
     * each piece's bounds hold the clock on its side. Null when no vertex tells, or when the two
     * overlap (a message neither line explains). O(h) per bucket searched.
     */
    private static long[] stepRange(Piece prev, Piece next, List<Bucket> b, int firstAfter, Piece before, Piece after,
                                    long x0, long v0) {
        MonotoneBound beforeInv = before.upper.inverse();
        MonotoneBound afterInv = after.lower.inverse();
        long earliest = Long.MIN_VALUE;
        for (int k = Math.min(firstAfter, next.first); k >= prev.first && earliest == Long.MIN_VALUE; k--) {
            earliest = wrongVertex(b.get(k), next, true, beforeInv, x0, v0);
        }
        long latest = Long.MAX_VALUE;
        for (int k = Math.max(prev.first, firstAfter - 1); k <= next.last && latest == Long.MAX_VALUE; k++) {
            latest = wrongVertex(b.get(k), prev, false, afterInv, x0, v0);
        }
        if (earliest == Long.MIN_VALUE || latest == Long.MAX_VALUE || earliest >= latest) {
            return null;
        }
        return new long[] {earliest, latest};
    }

    /**
     * Over the hull vertices of {@code bucket} on the wrong side of {@code line}: the latest
     * ({@code last}) of their messages' earlier ends, or the earliest of their later ends (u), or
     * {@code Long.MIN_VALUE} / {@code Long.MAX_VALUE} when none is. A b → a vertex's earlier end
     * and an a → b vertex's later end are their b ends ({@link #endATime}); the others, u.
     */
    private static long wrongVertex(Bucket bucket, Piece line, boolean last, MonotoneBound inverse, long x0, long v0) {
        long u = last ? Long.MIN_VALUE : Long.MAX_VALUE;
        for (int n = 0; n < bucket.pu().length; n++) {
            if (line.at(bucket.pu()[n]) > bucket.pv()[n]) {
                long end = last ? bucket.pu()[n] : endATime(bucket.pu()[n], bucket.pv()[n], inverse, false, x0, v0);
                u = last ? Math.max(u, end) : Math.min(u, end);
            }
        }
        for (int n = 0; n < bucket.qu().length; n++) {
            if (line.at(bucket.qu()[n]) < bucket.qv()[n]) {
                long end = last ? endATime(bucket.qu()[n], bucket.qv()[n], inverse, true, x0, v0) : bucket.qu()[n];
                u = last ? Math.max(u, end) : Math.min(u, end);
            }
        }
        return u;
    }

    /**
     * A strict bound (u) on the a-time of the b end of the message at vertex (u, v): its b-time
     * is B = x0 + u + v + v0 = f(t) at its a-time t, the clock f between {@code bounds}' lower L
     * and upper U. U(t) ≥ B gives t ≥ U⁻¹(B) ({@code earliest}: a b → a message, sent before its
     * receive at u); L(t) ≤ B gives t ≤ L⁻¹(B) (an a → b message, received after its send at u).
     * Rounded outwards; never past u on its side.
     */
    private static long endATime(long u, long v, MonotoneBound inverse, boolean earliest, long x0, long v0) {
        long bTime = x0 + u + v + v0;
        double t = (double) (bTime - x0) + inverse.deltaAt(bTime); // (U⁻¹ or L⁻¹)(B) − x0
        return earliest ? Math.min(u, (long) Math.floor(t) - 1) : Math.max(u, (long) Math.ceil(t) + 1);
    }

    /**
     * The cut (u) inside {@code range} nearest its middle at which {@code prev} before and
     * {@code next} from the cut on fit the hulls of the buckets around (checked exactly against
     * the polylines, as for a knot): the step is as likely anywhere in the range, and the middle
     * halves the worst distance to it. Candidates: the middle, every hull vertex in the range and
     * the instant after it, the range's end. {@code Long.MIN_VALUE} when none fits or none stays
     * after {@code prev}'s own start. O(c · h) for c candidates.
     */
    private static long centredCut(Piece prev, Piece next, List<Bucket> b, int firstAfter, long[] range, long x0) {
        int from = Math.max(prev.first, firstAfter - 1);
        int to = next.first;
        while (from > prev.first && firstU(b.get(from)) > range[0]) {
            from--;
        }
        while (to < next.last && lastU(b.get(to)) < range[1]) {
            to++;
        }
        long middle = range[0] + (range[1] - range[0]) / 2;
        long[] candidates = new long[3 + 2 * countPoints(b, from, to)];
        int n = 0;
        candidates[n++] = middle;
        candidates[n++] = range[0] + 1;
        candidates[n++] = range[1];
        n = addHullPointsAndNext(b, from, to, candidates, n);
        long best = Long.MIN_VALUE;
        Piece[] lines = {prev, next};
        for (int c = 0; c < n; c++) {
            long cut = candidates[c];
            if (cut <= range[0] || cut > range[1] || cut <= prev.cut - x0) {
                continue;
            }
            if (best != Long.MIN_VALUE && Math.abs(cut - middle) >= Math.abs(best - middle)) {
                continue;
            }
            if (sides(b, from, to, new long[] {cut}, lines)) {
                best = cut;
            }
        }
        return best;
    }

    /** Puts every hull point's u of buckets [from, to], and the u just after it, at {@code c[n..]}; returns the new n. */
    private static int addHullPointsAndNext(List<Bucket> b, int from, int to, long[] c, int n) {
        for (int k = from; k <= to; k++) {
            for (long u : b.get(k).pu()) {
                c[n++] = u;
                c[n++] = u + 1;
            }
            for (long u : b.get(k).qu()) {
                c[n++] = u;
                c[n++] = u + 1;
            }
        }
        return n;
    }

    private static long lastU(Bucket bucket) {
        long u = Long.MIN_VALUE;
        if (bucket.pu().length > 0) {
            u = bucket.pu()[bucket.pu().length - 1];
        }
        if (bucket.qu().length > 0) {
            u = Math.max(u, bucket.qu()[bucket.qu().length - 1]);
        }
        return u;
    }

    private static long firstU(Bucket bucket) {
        long u = Long.MAX_VALUE;
        if (bucket.pu().length > 0) {
            u = bucket.pu()[0];
        }
        if (bucket.qu().length > 0) {
            u = Math.min(u, bucket.qu()[0]);
        }
        return u;
    }

    /**
     * The cut (u) inside the broken buckets [from, to] between {@code prev} and {@code next}: the
     * candidate (bucket starts, every hull point, just after it) that violates fewest hull points
     * when points before it follow {@code prev}'s line and the others {@code next}'s.
     */
    private static long cutInside(List<Bucket> b, int from, int to, Piece prev, Piece next, TimeBuckets tb, long x0) {
        long[] candidates = new long[2 + 2 * countPoints(b, from, to)];
        int n = 0;
        candidates[n++] = tb.startU(b.get(from).key());
        candidates[n++] = next.uk;
        n = addHullPointsAndNext(b, from, to, candidates, n);
        Arrays.sort(candidates, 0, n);
        long best = next.uk;
        int bestViolations = Integer.MAX_VALUE;
        for (int c = 0; c < n; c++) {
            long cut = candidates[c];
            if (cut > next.uk) {
                break;
            }
            if (cut <= prev.cut - x0) {
                continue; // prev keeps a segment of its own
            }
            int violations = 0;
            for (int k = from; k <= to; k++) {
                Bucket bucket = b.get(k);
                for (int i = 0; i < bucket.pu().length; i++) {
                    long u = bucket.pu()[i];
                    if ((u < cut ? prev.at(u) : next.at(u)) > bucket.pv()[i]) {
                        violations++;
                    }
                }
                for (int i = 0; i < bucket.qu().length; i++) {
                    long u = bucket.qu()[i];
                    if ((u < cut ? prev.at(u) : next.at(u)) < bucket.qv()[i]) {
                        violations++;
                    }
                }
            }
            if (violations < bestViolations) {
                bestViolations = violations;
                best = cut;
            }
        }
        return best;
    }

    private static int countPoints(List<Bucket> b, int from, int to) {
        int n = 0;
        for (int k = from; k <= to; k++) {
            n += b.get(k).pu().length + b.get(k).qu().length;
        }
        return n;
    }

    /**
     * The segment after a step, with the step's interval [earliest, latest] as its either-side
     * times: the hull vertices place the step no closer (messages under a hull edge that bridges
     * the step may lie on either side of the cut), so an event there maps with the line of the
     * side it came from, which only its position tells (LinearSegment, MessageEnds).
     */
    private static LinearSegment stepSegment(LinearSegment segment, ClockStep step) {
        return segment.withEitherSide(step.earliest(), step.latest() + 1);
    }

    private static PairEstimate result(PairAccumulator acc, PairEstimate fallback, List<Piece> pieces,
                                       List<Piece> fitted, int unresolved, long width, double maxSlewRate,
                                       List<Piece> beyondBound, List<long[]> knotZones) {
        long x0 = acc.x0();
        long v0 = acc.v0();
        int n = pieces.size();
        List<LinearSegment> segments = new ArrayList<>(n);
        List<ClockStep> steps = new ArrayList<>();
        int breaks = 0;
        boolean bounded = true;
        for (int k = 0; k < n; k++) {
            Piece p = pieces.get(k);
            Long from = k == 0 ? null : p.cut;
            Long to = k == n - 1 ? null : pieces.get(k + 1).cut;
            LinearSegment segment = new LinearSegment(from, to, x0 + p.uk, (double) v0 + p.vk, p.d);
            if (p.start == Start.STEP) {
                segment = stepSegment(segment, p.step);
                steps.add(p.step);
            } else if (p.start == Start.BREAK) {
                breaks++;
            }
            segments.add(segment);
        }
        for (Piece p : fitted) {
            bounded &= p.bounded;
        }
        ClockTransform transform = new ClockTransform(segments);
        MonotoneBound lower = null;
        MonotoneBound upper = null;
        double mean = Double.NaN;
        if (bounded) {
            long[] cuts = ascendingCuts(fitted);
            List<long[]> zones = new ArrayList<>();
            for (int k = 0; k + 1 < n; k++) {
                if (pieces.get(k).slew) {
                    zones.add(slewZone(fitted, cuts, pieces.get(k).cut - width, pieces.get(k + 1).cut + width));
                }
            }
            // a step: between the last message consistent with before and the first consistent
            // with after, either clock may hold, wherever the transform is cut
            for (ClockStep st : steps) {
                if (st.latest() > st.earliest()) {
                    zones.add(new long[] {st.earliest(), st.latest()});
                }
            }
            for (int k = 1; k + 1 < fitted.size(); k++) {
                if (fitted.get(k).envelope) {
                    zones.add(slewZone(fitted, cuts, fitted.get(k).cut, fitted.get(k + 1).cut - 1));
                }
            }
            // a break: a jump no step proves (a slew or a step whose messages the buckets' hulls
            // hide); around it either side's clock may hold, as across a slew
            for (int k = 1; k < n; k++) {
                if (pieces.get(k).start == Start.BREAK) {
                    zones.add(slewZone(fitted, cuts, pieces.get(k).cut - width, pieces.get(k).cut + width));
                }
            }
            // a knot's bucket between the two bound pieces it was cut into (splitAtKnots); one that
            // meets another zone joins it: their union takes the envelope of the pieces outside both
            for (long[] kz : knotZones) {
                long[] union = kz;
                for (int z = zones.size() - 1; z >= 0; z--) {
                    long[] other = zones.get(z);
                    if (union[0] <= other[1] && other[0] <= union[1]) {
                        long samples = Math.max(union.length > 2 ? union[2] : ZONE_SAMPLES,
                                other.length > 2 ? other[2] : ZONE_SAMPLES);
                        union = new long[] {Math.min(union[0], other[0]), Math.max(union[1], other[1]), samples};
                        zones.remove(z);
                    }
                }
                zones.add(union);
            }
            sortByStart(zones);
            lower = withSlews(join(fitted, MonotoneBound.Kind.LOWER), fitted, cuts, zones);
            upper = withSlews(join(fitted, MonotoneBound.Kind.UPPER), fitted, cuts, zones);
            mean = ConvexHullEstimator.meanWidth(lower, upper, acc.minX(), acc.maxX());
        }
        PiecewiseFit fit = new PiecewiseFit(transform, lower, upper, n, steps, breaks, unresolved, width,
                beyondBound.size());
        Piece first = pieces.get(0);
        String note = String.format(ConvexHullEstimator.NOTES,
                "hulls cross (clocks not linear over the trace): %d pieces, continuous at the knots except at %d step%s"
                        + " and %d break%s; knots on %.0f ms buckets; bounds assume each clock linear within each piece%s",
                n, steps.size(), steps.size() == 1 ? "" : "s", breaks, breaks == 1 ? "" : "s", width / 1e6,
                unresolved > 0 ? "; " + unresolved + " bucket" + (unresolved == 1 ? "" : "s")
                        + " fit no line on its own, or only one faster than a slew (a step inside), and may leave messages inverted" : "")
                + (bounded ? "" : "; a piece has too few messages for two-sided bounds: no bounds")
                + (maxSlewRate == NO_SLEW_RATE_BOUND ? "" : boundNote(maxSlewRate, pieces, beyondBound));
        PairGeometry geometry = new PairGeometry(acc.a(), acc.b(), acc.countAToB(), acc.countBToA(), x0, v0,
                acc.minX(), acc.maxX(), fallback.pu(), fallback.pv(), fallback.qu(), fallback.qv());
        return new PairEstimate(geometry, note, null, new EstimateLine(first.vk - first.d * (double) first.uk, first.d),
                bounded ? new PairBounds(lower, upper, mean) : null, FallbackStatistics.NONE, fit);
    }

    /**
     * The note's part on a slew-rate bound: the bound, and each slew faster than it that the fit
     * kept because none within it fits the messages there (its rate from the line before, in ppm,
     * and where it starts, a-time in ns).
     */
    private static String boundNote(double maxSlewRate, List<Piece> pieces, List<Piece> beyondBound) {
        StringBuilder note = new StringBuilder(String.format(ConvexHullEstimator.NOTES,
                "; slews at most %.1f ppm from the line before", maxSlewRate * 1e6));
        if (!beyondBound.isEmpty()) {
            note.append(String.format(ConvexHullEstimator.NOTES, ", except %d where none that slow fits the messages"
                    + " (a faster slew, or a step; the fit without the bound is kept there):", beyondBound.size()));
            for (Piece slew : beyondBound) {
                Piece before = pieces.get(pieces.indexOf(slew) - 1);
                note.append(String.format(ConvexHullEstimator.NOTES, " %.1f ppm at a-time %d ns,",
                        Math.abs(slew.d - before.d) * 1e6, slew.cut));
            }
            note.setLength(note.length() - 1);
        }
        return note.toString();
    }

    /**
     * Sorts zones by their start, stably (equal starts keep their order: what {@code List.sort}
     * by the start gives). An insertion sort of the few zones (a few per slew, step or break):
     * no comparator lambda to link and no general sort to run cold after the read.
     */
    static void sortByStart(List<long[]> zones) {
        for (int i = 1; i < zones.size(); i++) {
            long[] z = zones.get(i);
            int j = i;
            while (j > 0 && zones.get(j - 1)[0] > z[0]) {
                zones.set(j, zones.get(j - 1));
                j--;
            }
            zones.set(j, z);
        }
    }

    /**
     * The order of the vertices of buckets [zf, zt] (listed bucket by bucket, each bucket's a → b
     * vertices then its b → a ones, as {@code u} holds them) by ascending u, equal u in list
     * order: the stable sort's order. Each bucket's two runs ascend and buckets follow each other
     * in time, so a merge of each bucket's two runs gives it in O(n); when the merged order does
     * not ascend (runs that do not), a stable sort of the indices instead.
     */
    static int[] orderByU(List<Bucket> b, int zf, int zt, long[] u) {
        int n = u.length;
        int[] order = new int[n];
        int k = 0;
        int at = 0;
        for (int z = zf; z <= zt; z++) {
            int np = b.get(z).pu().length;
            int nq = b.get(z).qu().length;
            int i = k;
            int j = k + np;
            int pEnd = k + np;
            int qEnd = k + np + nq;
            while (i < pEnd || j < qEnd) {
                order[at++] = j >= qEnd || (i < pEnd && u[i] <= u[j]) ? i++ : j++;
            }
            k = qEnd;
        }
        for (int i = 1; i < n; i++) {
            if (u[order[i]] < u[order[i - 1]]) {
                Integer[] boxed = new Integer[n];
                for (int m = 0; m < n; m++) {
                    boxed[m] = m;
                }
                Arrays.sort(boxed, (x, y) -> Long.compare(u[x], u[y]));
                for (int m = 0; m < n; m++) {
                    order[m] = boxed[m];
                }
                return order;
            }
        }
        return order;
    }

    /**
     * A slew's zone for the bounds: [a, b] (the slew's knots, a bucket width out) widened to the
     * start of the bound piece holding a and to the end of the bound piece holding b. Bound
     * pieces are fitted with a small margin only, so one of them may run through part of the
     * slew (at a few messages per second its corridor is wide enough for a tilted line), and its
     * envelope then holds neither clock line; the zone's envelope is taken from the bound pieces
     * just outside it, extended into it.
     */
    private static long[] slewZone(List<Piece> bound, long[] cuts, long a, long b) {
        long from = a;
        long to = b;
        if (cuts != null) {
            // the segments [cut, next cut) are disjoint and ascending: the one holding a time is
            // the last piece starting at or before it, as the loop below finds it
            int ka = lastAtOrBefore(cuts, a);
            if (ka > 0) {
                from = cuts[ka];
            }
            int kb = lastAtOrBefore(cuts, b);
            if (kb >= 0 && kb + 1 < cuts.length) {
                to = cuts[kb + 1];
            }
            return new long[] {from, to};
        }
        for (int k = 0; k < bound.size(); k++) {
            Piece p = bound.get(k);
            long end = k + 1 < bound.size() ? bound.get(k + 1).cut : Long.MAX_VALUE;
            if (p.cut <= a && a < end && k > 0) {
                from = p.cut;
            }
            if (p.cut <= b && b < end && end != Long.MAX_VALUE) {
                to = end;
            }
        }
        return new long[] {from, to};
    }

    /**
     * The bound {@code f} with each slew, break or step zone [a, b] replaced by the envelope of the bound
     * pieces on both sides of it, extended into the zone: below both lower bounds (above both
     * upper ones). A slew moves the offset monotonically from one side's line to the other's, so
     * the clock stays between them (an assumption, like linearity within a piece); across a step
     * zone (its earliest to latest time) the clock follows one side's line or the other's. Sampled at both
     * ends and {@value #ZONE_SAMPLES} points between, and interpolated linearly: the minimum
     * (maximum) of two linear bounds is concave (convex), so the interpolation stays on the safe
     * side.
     */
    private static MonotoneBound withSlews(MonotoneBound f, List<Piece> pieces, long[] cuts, List<long[]> zones) {
        if (zones.isEmpty()) {
            return f;
        }
        boolean up = f.kind() == MonotoneBound.Kind.UPPER;
        long[] ts = new long[f.size() + zones.size() * (ZONE_SAMPLES + 3)];
        long[] rs = new long[ts.length];
        int n = 0;
        int z = 0;
        int k = 0;
        while (k < f.size() || z < zones.size()) {
            if (z < zones.size() && (k >= f.size() || f.t(k) >= zones.get(z)[0])) {
                long a = zones.get(z)[0];
                long b = zones.get(z)[1];
                MonotoneBound before = side(pieces, cuts, a - 1, up);
                MonotoneBound after = side(pieces, cuts, b, up);
                int samples = zones.get(z).length > 2 ? (int) zones.get(z)[2] : ZONE_SAMPLES;
                for (int i = 0; i <= samples + 1; i++) {
                    long t = a + (b - a) * i / (samples + 1);
                    if (n > 0 && ts[n - 1] >= t) {
                        continue;
                    }
                    double d1 = before.deltaAt(t);
                    double d2 = after.deltaAt(t);
                    ts[n] = t;
                    rs[n++] = t + (long) (up ? Math.ceil(Math.max(d1, d2)) : Math.floor(Math.min(d1, d2)));
                }
                k = Math.max(k, f.samplesUpTo(b)); // past the samples at or before b
                z++;
            } else {
                // f's samples before the next zone (all that remain after the last one), those
                // above the last time written: f's times ascend, so they are one run, copied at
                // once (f.t(k) < the zone's start here, so that start is above Long.MIN_VALUE)
                int end = z < zones.size() ? f.samplesUpTo(zones.get(z)[0] - 1) : f.size();
                int start = n == 0 ? k : Math.max(k, f.samplesUpTo(ts[n - 1]));
                if (end > start) {
                    f.copySamples(start, end, ts, rs, n);
                    n += end - start;
                }
                k = end;
            }
        }
        if (up) {
            for (int i = 1; i < n; i++) {
                if (rs[i] <= rs[i - 1]) {
                    rs[i] = rs[i - 1] + 1;
                }
            }
        } else {
            for (int i = n - 2; i >= 0; i--) {
                if (rs[i] >= rs[i + 1]) {
                    rs[i] = rs[i + 1] - 1;
                }
            }
        }
        return new MonotoneBound(f.kind(), Arrays.copyOf(ts, n), Arrays.copyOf(rs, n), f.slopeLeft(), f.slopeRight());
    }

    /** Samples inside a slew zone, besides its ends. */
    private static final int ZONE_SAMPLES = 32;

    /**
     * Samples inside a knot's bucket ({@link #splitAtKnots}), besides its ends: the two bound
     * pieces' bounds extended into one bucket are nearly parallel lines, whose maximum (minimum)
     * a few samples follow closely; 32 in each of a day's 330 knots' buckets cost 3 % of the
     * 24 h file's CPU in rows.
     */
    private static final int KNOT_ZONE_SAMPLES = 2;

    /**
     * The bound of the bound piece holding {@code t} (the last one starting at or before it, else
     * the first): a binary search over {@code cuts} when they ascend, else a scan.
     */
    private static MonotoneBound side(List<Piece> pieces, long[] cuts, long t, boolean up) {
        Piece pick = pieces.get(0);
        if (cuts != null) {
            pick = pieces.get(Math.max(0, lastAtOrBefore(cuts, t)));
        } else {
            for (Piece p : pieces) {
                if (p.cut <= t) {
                    pick = p;
                }
            }
        }
        return up ? pick.upper : pick.lower;
    }

    /** The pieces' cuts when they never descend (bound pieces are in time order), else null. */
    static long[] ascendingCuts(List<Piece> pieces) {
        long[] cuts = new long[pieces.size()];
        for (int k = 0; k < cuts.length; k++) {
            cuts[k] = pieces.get(k).cut;
            if (k > 0 && cuts[k] < cuts[k - 1]) {
                return null;
            }
        }
        return cuts;
    }

    /** The last index whose cut is at or before t (of ascending cuts), or -1 when none is. */
    static int lastAtOrBefore(long[] cuts, long t) {
        int lo = 0;
        int hi = cuts.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cuts[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    /**
     * One bound function over all pieces: each piece's samples inside its segment, plus its values
     * at both ends of the segment (rounded outward), then made strictly increasing by raising an
     * upper bound or lowering a lower one (both stay strict bounds).
     */
    private static MonotoneBound join(List<Piece> pieces, MonotoneBound.Kind kind) {
        boolean upperKind = kind == MonotoneBound.Kind.UPPER;
        int capacity = 0;
        for (Piece p : pieces) {
            capacity += (upperKind ? p.upper : p.lower).size() + 2; // its samples and both ends at most
        }
        long[] ts = new long[capacity];
        long[] rs = new long[capacity];
        int n = 0;
        for (int k = 0; k < pieces.size(); k++) {
            Piece p = pieces.get(k);
            MonotoneBound f = upperKind ? p.upper : p.lower;
            long from = k == 0 ? Long.MIN_VALUE : p.cut;
            long to = k == pieces.size() - 1 ? Long.MAX_VALUE : pieces.get(k + 1).cut - 1;
            if (to < from) {
                continue;
            }
            if (k > 0) {
                ts[n] = from;
                rs[n++] = value(f, from, upperKind);
            }
            // the samples strictly inside (from, to): f's times ascend, so they are one run
            int first = f.samplesUpTo(from);
            int end = to == Long.MIN_VALUE ? 0 : f.samplesUpTo(to - 1);
            if (end > first) {
                f.copySamples(first, end, ts, rs, n);
                n += end - first;
            }
            if (k < pieces.size() - 1 && (n == 0 || ts[n - 1] < to)) {
                ts[n] = to;
                rs[n++] = value(f, to, upperKind);
            }
        }
        if (upperKind) {
            for (int k = 1; k < n; k++) {
                if (rs[k] <= rs[k - 1]) {
                    rs[k] = rs[k - 1] + 1;
                }
            }
        } else {
            for (int k = n - 2; k >= 0; k--) {
                if (rs[k] >= rs[k + 1]) {
                    rs[k] = rs[k + 1] - 1;
                }
            }
        }
        MonotoneBound firstF = upperKind ? pieces.get(0).upper : pieces.get(0).lower;
        MonotoneBound lastF = upperKind ? pieces.get(pieces.size() - 1).upper : pieces.get(pieces.size() - 1).lower;
        return new MonotoneBound(kind, Arrays.copyOf(ts, n), Arrays.copyOf(rs, n), firstF.slopeLeft(), lastF.slopeRight());
    }

    private static long value(MonotoneBound f, long t, boolean up) {
        double delta = f.deltaAt(t);
        return t + (long) (up ? Math.ceil(delta) : Math.floor(delta));
    }
}
