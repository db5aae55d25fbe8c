package org.tracesync.core.accumulate;

/**
 * What estimation needs of the messages between two nodes a &lt; b (DESIGN §1 stage 3, §3): the
 * lower half hull of the a → b points, the upper half hull of the b → a points, counts and the
 * time span, and the half hulls per time bucket ({@link TimeBuckets}) that piecewise estimation
 * needs. Memory O(buckets · h_bucket), bounded by the bucket cap whatever the number of messages.
 *
 * <p>Coordinates: for a message with a-time x and b-time y, {@code u = x − X0} and
 * {@code v = y − x − V0}, where (X0, V0) come from the first message seen, so that every
 * coordinate is a small exact long. An a → b message (sent at x, received at y) lies above the
 * true line; a b → a message (sent at y, received at x) below it.
 *
 * <p>Each message goes into one hull only, its time bucket's ({@link TimeBuckets}); the two half
 * hulls of the whole pair are derived from the buckets' vertices when first read after a change
 * (O(bucket vertices)): the same vertices as pushing every message into them, without a second
 * hull push per message. The hulls returned are read only.
 *
 * <p>Mergeable: {@link #merge} gives the same hulls, counts and span as accumulating all messages
 * of both accumulators in one (chunks, threads or partitions can each build one).
 */
public final class PairAccumulator {

    private final int a;
    private final int b;
    private boolean hasOrigin;
    private long x0;
    private long v0;
    // the whole pair's half hulls, derived from the buckets on read (null: to derive)
    private transient HalfHull aToB;
    private transient HalfHull bToA;
    private long countAToB;
    private long countBToA;
    private long minX = Long.MAX_VALUE;
    private long maxX = Long.MIN_VALUE;
    private TimeBuckets buckets;

    public PairAccumulator(int a, int b) {
        if (a >= b) {
            throw new IllegalArgumentException("pair nodes must satisfy a < b, got " + a + ", " + b);
        }
        this.a = a;
        this.b = b;
    }

    /**
     * An accumulator of the pair (0, 1) that holds only the given whole-pair hulls (no time
     * buckets), in coordinates of origin ({@code x0}, {@code v0}), with the counts and the a-time
     * span of the messages they came from: what adding those messages one by one
     * would give to whatever reads the hulls, counts and span, without rebuilding the hulls
     * through time buckets. The hulls are taken, not copied; the accumulator is read only.
     */
    public static PairAccumulator ofHulls(long x0, long v0, HalfHull aToB, HalfHull bToA,
                                          long countAToB, long countBToA, long minX, long maxX) {
        if (aToB.side() != HalfHull.Side.LOWER || bToA.side() != HalfHull.Side.UPPER) {
            throw new IllegalArgumentException("a → b hull must be LOWER and b → a UPPER");
        }
        PairAccumulator acc = new PairAccumulator(0, 1);
        acc.hasOrigin = countAToB + countBToA > 0;
        acc.x0 = x0;
        acc.v0 = v0;
        acc.aToB = aToB;
        acc.bToA = bToA;
        acc.countAToB = countAToB;
        acc.countBToA = countBToA;
        acc.minX = minX;
        acc.maxX = maxX;
        return acc;
    }

    public int a() {
        return a;
    }

    public int b() {
        return b;
    }

    /** Adds a message a → b: sent at a-time {@code x}, received at b-time {@code y}. */
    public void addAToB(long x, long y) {
        origin(x, y);
        long u = Math.subtractExact(x, x0);
        long v = Math.subtractExact(Math.subtractExact(y, x), v0);
        aToB = null;
        buckets.addP(u, v);
        countAToB++;
        span(x);
    }

    /** Adds a message b → a: sent at b-time {@code y}, received at a-time {@code x}. */
    public void addBToA(long y, long x) {
        origin(x, y);
        long u = Math.subtractExact(x, x0);
        long v = Math.subtractExact(Math.subtractExact(y, x), v0);
        bToA = null;
        buckets.addQ(u, v);
        countBToA++;
        span(x);
    }

    private void origin(long x, long y) {
        if (!hasOrigin) {
            hasOrigin = true;
            x0 = x;
            v0 = Math.subtractExact(y, x);
            buckets = new TimeBuckets(x0);
        }
    }

    private void span(long x) {
        if (x < minX) {
            minX = x;
        }
        if (x > maxX) {
            maxX = x;
        }
    }

    /** Folds {@code other} (same pair) into this accumulator. */
    public void merge(PairAccumulator other) {
        if (other.a != a || other.b != b) {
            throw new IllegalArgumentException("cannot merge pair (" + other.a + "," + other.b
                    + ") into (" + a + "," + b + ")");
        }
        if (!other.hasOrigin) {
            return;
        }
        if (!hasOrigin) {
            hasOrigin = true;
            x0 = other.x0;
            v0 = other.v0;
            buckets = new TimeBuckets(x0);
        }
        long du = Math.subtractExact(other.x0, x0);
        long dv = Math.subtractExact(other.v0, v0);
        buckets.addAllShifted(other.buckets, du, dv);
        aToB = null;
        bToA = null;
        countAToB += other.countAToB;
        countBToA += other.countBToA;
        minX = Math.min(minX, other.minX);
        maxX = Math.max(maxX, other.maxX);
    }

    public boolean isEmpty() {
        return !hasOrigin;
    }

    /** Origin of u on a's clock (ns); 0 when empty. */
    public long x0() {
        return x0;
    }

    /** Offset subtracted from y − x (ns); 0 when empty. */
    public long v0() {
        return v0;
    }

    /**
     * The hulls per time bucket (for piecewise estimation of non-linear clocks), in this
     * accumulator's coordinates; null when empty.
     */
    public TimeBuckets timeBuckets() {
        return buckets;
    }

    /** Lower half hull of the a → b points (read only). */
    public HalfHull aToB() {
        derive();
        return aToB;
    }

    /** Upper half hull of the b → a points (read only). */
    public HalfHull bToA() {
        derive();
        return bToA;
    }

    private void derive() {
        deriveUnless(null);
    }

    /**
     * Derives the whole pair's half hulls (what {@link #aToB} and {@link #bToA} read), unless
     * {@code stop} answers true about the hulls of a run of a long trace's sub-buckets (see
     * {@link TimeBuckets#addVerticesUnless}): then nothing is derived and this returns false, and
     * the caller that stopped provides the hulls ({@link #takeHulls}) before they are read. True
     * when the hulls are derived (now or before).
     */
    public boolean deriveUnless(TimeBuckets.PartStop stop) {
        if (aToB != null && bToA != null) {
            return true;
        }
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        if (buckets != null && !buckets.addVerticesUnless(p, q, stop)) {
            return false;
        }
        aToB = p;
        bToA = q;
        return true;
    }

    /**
     * Takes {@code p} (a → b, LOWER) and {@code q} (b → a, UPPER) as the whole pair's half hulls,
     * in place of deriving them: for a caller that has built them from every vertex of
     * {@link #timeBuckets()} another way (the piecewise fit, from its blocks of buckets). They are
     * then the derived hulls exactly, the hull of a point set being unique; with assertions on,
     * this derives them too and compares. The hulls are taken, not copied; read only after.
     */
    public void takeHulls(HalfHull p, HalfHull q) {
        if (p.side() != HalfHull.Side.LOWER || q.side() != HalfHull.Side.UPPER) {
            throw new IllegalArgumentException("a → b hull must be LOWER and b → a UPPER");
        }
        assert sameAsDerived(p, q) : "hulls taken for pair (" + a + "," + b + ") differ from its buckets' vertices'";
        aToB = p;
        bToA = q;
    }

    private boolean sameAsDerived(HalfHull p, HalfHull q) {
        HalfHull dp = new HalfHull(HalfHull.Side.LOWER);
        HalfHull dq = new HalfHull(HalfHull.Side.UPPER);
        if (buckets != null) {
            buckets.addVerticesTo(dp, dq);
        }
        return java.util.Arrays.equals(dp.us(), p.us()) && java.util.Arrays.equals(dp.vs(), p.vs())
                && java.util.Arrays.equals(dq.us(), q.us()) && java.util.Arrays.equals(dq.vs(), q.vs());
    }

    public long countAToB() {
        return countAToB;
    }

    public long countBToA() {
        return countBToA;
    }

    /** First a-time of any message of the pair. */
    public long minX() {
        return minX;
    }

    /** Last a-time of any message of the pair. */
    public long maxX() {
        return maxX;
    }
}
