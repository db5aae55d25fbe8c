package org.tracesync.core.accumulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import java.math.BigInteger;

class HalfHullTest {

    /** Brute-force check: every point lies on the correct side of every hull edge, vertices are in the set. */
    static void assertIsHalfHull(HalfHull h, long[] u, long[] v) {
        long[] hu = h.us();
        long[] hv = h.vs();
        boolean lower = h.side() == HalfHull.Side.LOWER;
        for (int k = 1; k < hu.length; k++) {
            assertThat(hu[k]).isGreaterThan(hu[k - 1]);
        }
        for (int k = 0; k + 1 < hu.length; k++) {
            for (int i = 0; i < u.length; i++) {
                if (u[i] < hu[k] || u[i] > hu[k + 1]) {
                    continue;
                }
                // side of point i against edge k (exact, BigInteger)
                BigInteger cross = BigInteger.valueOf(hu[k + 1] - hu[k]).multiply(BigInteger.valueOf(v[i] - hv[k]))
                        .subtract(BigInteger.valueOf(hv[k + 1] - hv[k]).multiply(BigInteger.valueOf(u[i] - hu[k])));
                assertThat(lower ? cross.signum() >= 0 : cross.signum() <= 0)
                        .as("point %d (%d,%d) on the wrong side of edge %d", i, u[i], v[i], k).isTrue();
            }
        }
        // the extremes are the extreme abscissas, and each vertex is an input point
        long minU = Long.MAX_VALUE;
        long maxU = Long.MIN_VALUE;
        for (long x : u) {
            minU = Math.min(minU, x);
            maxU = Math.max(maxU, x);
        }
        assertThat(hu[0]).isEqualTo(minU);
        assertThat(hu[hu.length - 1]).isEqualTo(maxU);
        for (int k = 0; k < hu.length; k++) {
            boolean found = false;
            for (int i = 0; i < u.length && !found; i++) {
                found = u[i] == hu[k] && v[i] == hv[k];
            }
            assertThat(found).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void anyArrivalOrderGivesTheSameHull(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 50 + r.nextInt(3000);
        long[] u = new long[n];
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            u[i] = r.nextLong(3_600_000_000_000L); // an hour of ns
            v[i] = 80_000_000L + u[i] / 100_000 + (long) (-Math.log(1 - r.nextDouble()) * 50_000) + 20_000;
            if (i % 17 == 0 && i > 0) {
                u[i] = u[i - 1]; // duplicate abscissas
            }
        }
        for (HalfHull.Side side : HalfHull.Side.values()) {
            HalfHull shuffled = new HalfHull(side);
            for (int i = 0; i < n; i++) {
                shuffled.add(u[i], v[i]);
            }
            long[][] sorted = sortedCopy(u, v);
            HalfHull inOrder = new HalfHull(side);
            for (int i = 0; i < n; i++) {
                inOrder.add(sorted[0][i], sorted[1][i]);
            }
            assertThat(shuffled.us()).containsExactly(inOrder.us());
            assertThat(shuffled.vs()).containsExactly(inOrder.vs());
            assertIsHalfHull(shuffled, u, v);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15})
    void mergingEqualsAccumulatingOnce(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 5000;
        HalfHull all = new HalfHull(HalfHull.Side.LOWER);
        HalfHull[] parts = {new HalfHull(HalfHull.Side.LOWER), new HalfHull(HalfHull.Side.LOWER), new HalfHull(HalfHull.Side.LOWER)};
        for (int i = 0; i < n; i++) {
            long u = r.nextLong(1_000_000_000_000L);
            long v = (long) (1e6 * Math.sin(u / 1e11)) + r.nextLong(100_000);
            all.add(u, v);
            parts[r.nextInt(3)].add(u, v);
        }
        HalfHull merged = new HalfHull(HalfHull.Side.LOWER);
        for (HalfHull p : parts) {
            merged.addAll(p);
        }
        assertThat(merged.us()).containsExactly(all.us());
        assertThat(merged.vs()).containsExactly(all.vs());
    }

    @ParameterizedTest
    @ValueSource(longs = {41, 42, 43, 44})
    void aShiftedHullMergedIntoAnEmptyOneIsThePushedShiftedHull(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (HalfHull.Side side : HalfHull.Side.values()) {
            HalfHull h = new HalfHull(side);
            int n = r.nextInt(2000);
            for (int i = 0; i < n; i++) {
                long u = r.nextLong(1_000_000);
                h.add(u, r.nextInt(3) == 0 ? 5 * u : (long) (1e5 * Math.cos(u / 1e5)) + r.nextLong(1000));
            }
            long du = r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
            long dv = r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
            HalfHull copied = new HalfHull(side);
            copied.addAllShifted(h, du, dv);
            HalfHull pushed = new HalfHull(side);
            long[] us = h.us();
            long[] vs = h.vs();
            for (int i = 0; i < us.length; i++) {
                pushed.add(us[i] + du, vs[i] + dv);
            }
            assertThat(copied.us()).containsExactly(pushed.us());
            assertThat(copied.vs()).containsExactly(pushed.vs());
            copied.add(2_000_000 + du, dv); // and it grows on from there
            pushed.add(2_000_000 + du, dv);
            assertThat(copied.us()).containsExactly(pushed.us());
        }
    }

    @Test
    void aCopyHasTheSameVerticesAndGrowsAlone() {
        HalfHull h = new HalfHull(HalfHull.Side.LOWER);
        for (long x = 0; x < 100; x++) {
            h.add(x, x * x);
        }
        h.add(-5, 1_000); // pending: folded in by the copy
        HalfHull c = new HalfHull(HalfHull.Side.LOWER);
        c.add(7, 7);
        c.copyOf(h);
        assertThat(c.us()).containsExactly(h.us());
        assertThat(c.vs()).containsExactly(h.vs());
        c.add(200, 0);
        assertThat(c.size()).isLessThan(h.size() + 1);
        assertThat(h.us()[h.size() - 1]).isEqualTo(99);
    }

    @Test
    void collinearAndDuplicatePointsAreNotVertices() {
        HalfHull h = new HalfHull(HalfHull.Side.LOWER);
        h.add(0, 0);
        h.add(10, 10);
        h.add(5, 5); // collinear, out of order
        h.add(10, 12); // same abscissa, higher: dominated
        h.add(20, 20);
        assertThat(h.us()).containsExactly(0, 20);
        h.add(10, 9);
        assertThat(h.us()).containsExactly(0, 10, 20);
        assertThat(h.vs()).containsExactly(0, 9, 20);
    }

    @Test
    void millionPointsOnAConvexCurveAllStayOnTheHull() {
        // h ≈ n: every point is a vertex. Must stay O(n log n) overall, in and out of order.
        int n = 1_000_000;
        HalfHull lower = new HalfHull(HalfHull.Side.LOWER);
        for (int i = 0; i < n; i++) {
            long u = (long) i * 1_000;
            lower.add(u, (long) i * i); // v = u²/1e6: convex
        }
        assertThat(lower.size()).isEqualTo(n);
        HalfHull reversed = new HalfHull(HalfHull.Side.LOWER);
        for (int i = n - 1; i >= 0; i--) {
            reversed.add((long) i * 1_000, (long) i * i);
        }
        assertThat(reversed.size()).isEqualTo(n);
        assertThat(reversed.v(n - 1)).isEqualTo((long) (n - 1) * (n - 1));
    }

    /**
     * The insertion's turn test against BigInteger on operands of every magnitude, from 1 bit to
     * 63 (products up to 2^126, the two sides' high words equal and the low words differing only
     * in their top bit), both signs, and exact ties.
     */
    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void leftTurnIsExactAtEveryMagnitude(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int n = 0; n < 300_000; n++) {
            long du1 = operand(r);
            long dv1 = operand(r);
            long du2 = operand(r);
            long dv2 = operand(r);
            if (n % 5 == 0) { // a tie: (du2, dv2) a multiple of (du1, dv1)
                long k = 1 + r.nextInt(3);
                if (Math.abs(du1) < Long.MAX_VALUE / 4 && Math.abs(dv1) < Long.MAX_VALUE / 4) {
                    du2 = du1 * k;
                    dv2 = dv1 * k;
                }
            }
            BigInteger cross = BigInteger.valueOf(du1).multiply(BigInteger.valueOf(dv2))
                    .subtract(BigInteger.valueOf(dv1).multiply(BigInteger.valueOf(du2)));
            assertThat(HalfHull.leftTurn(du1, dv1, du2, dv2)).as("(%d, %d) then (%d, %d)", du1, dv1, du2, dv2)
                    .isEqualTo(cross.signum() > 0);
        }
    }

    /** A random long of 1 to 63 significant bits, either sign. */
    private static long operand(SplittableRandom r) {
        int bits = 1 + r.nextInt(63);
        long x = r.nextLong() >>> (64 - bits);
        return r.nextBoolean() ? x : -x;
    }

    /**
     * Both sides at epoch-scale offsets and hour-long spans (cross products beyond 64 bits), in
     * order, shuffled and merged from shifted parts: the same hull, and the brute-force check
     * holds (upper hulls are stored negated: what is read is what was added).
     */
    @ParameterizedTest
    @ValueSource(longs = {31, 32, 33, 34})
    void bothSidesAtLargeMagnitudesMergeShiftedAsAccumulatedOnce(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 2000 + r.nextInt(2000);
        long[] u = new long[n];
        long[] v = new long[n];
        long base = r.nextLong(-4_000_000_000_000_000L, 4_000_000_000_000_000L);
        for (int i = 0; i < n; i++) {
            u[i] = base + r.nextLong(3_600_000_000_000L);
            v[i] = -base / 3 + (long) (3e9 * Math.sin((u[i] - base) / 4e11)) + r.nextLong(5_000_000_000L);
        }
        for (HalfHull.Side side : HalfHull.Side.values()) {
            HalfHull once = new HalfHull(side);
            HalfHull[] parts = {new HalfHull(side), new HalfHull(side)};
            long[] du = {r.nextLong(-1_000_000_000L, 1_000_000_000L), r.nextLong(-1_000_000_000L, 1_000_000_000L)};
            long[] dv = {r.nextLong(-1_000_000_000L, 1_000_000_000L), r.nextLong(-1_000_000_000L, 1_000_000_000L)};
            for (int i = 0; i < n; i++) {
                once.add(u[i], v[i]);
                int k = r.nextInt(2);
                parts[k].add(u[i] - du[k], v[i] - dv[k]); // the part's own origin
            }
            HalfHull merged = new HalfHull(side);
            merged.addAllShifted(parts[0], du[0], dv[0]);
            merged.addAllShifted(parts[1], du[1], dv[1]);
            assertThat(merged.us()).containsExactly(once.us());
            assertThat(merged.vs()).containsExactly(once.vs());
            assertIsHalfHull(once, u, v);
            for (int k = 0; k < once.size(); k++) {
                assertThat(once.v(k)).isEqualTo(once.vs()[k]);
            }
        }
    }

    /**
     * The half hull of (u, v) by the book: sorted by u (the extreme v kept at equal u), then one
     * monotone chain pass whose turn tests are BigInteger cross products. The oracle of the pushes'
     * fast paths (64-bit tests inside a box, three edges tested at once).
     */
    static long[][] referenceHull(long[] u, long[] v, HalfHull.Side side) {
        long sign = side == HalfHull.Side.LOWER ? 1 : -1;
        Integer[] order = new Integer[u.length];
        for (int i = 0; i < u.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> u[a] != u[b] ? Long.compare(u[a], u[b]) : Long.compare(sign * v[a], sign * v[b]));
        java.util.List<long[]> chain = new java.util.ArrayList<>();
        for (int k = 0; k < order.length; k++) {
            long pu = u[order[k]];
            long pw = sign * v[order[k]];
            if (!chain.isEmpty() && chain.get(chain.size() - 1)[0] == pu) {
                continue; // the lowest stored w at this u came first
            }
            while (chain.size() >= 2) {
                long[] a = chain.get(chain.size() - 2);
                long[] b = chain.get(chain.size() - 1);
                BigInteger cross = BigInteger.valueOf(b[0]).subtract(BigInteger.valueOf(a[0]))
                        .multiply(BigInteger.valueOf(pw).subtract(BigInteger.valueOf(a[1])))
                        .subtract(BigInteger.valueOf(b[1]).subtract(BigInteger.valueOf(a[1]))
                                .multiply(BigInteger.valueOf(pu).subtract(BigInteger.valueOf(a[0]))));
                if (cross.signum() > 0) {
                    break;
                }
                chain.remove(chain.size() - 1);
            }
            chain.add(new long[] {pu, pw});
        }
        long[][] out = new long[2][chain.size()];
        for (int k = 0; k < chain.size(); k++) {
            out[0][k] = chain.get(k)[0];
            out[1][k] = sign * chain.get(k)[1];
        }
        return out;
    }

    private static void assertReferenceHull(HalfHull h, long[] u, long[] v) {
        long[][] ref = referenceHull(u, v, h.side());
        assertThat(h.us()).containsExactly(ref[0]);
        assertThat(h.vs()).containsExactly(ref[1]);
    }

    /**
     * Points nearly in u order (a few late ones), pushed one by one, as a time bucket's messages
     * come: a narrow band of latencies around a slope, with collinear runs, equal abscissas and
     * repeated points. Some streams stay inside the box of the 64-bit tests, some reach its edges
     * exactly, some leave it in u or in v partway (after which the hull's tests are the 128-bit
     * ones), some start far from 0: every hull equals the reference.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
    void pushesEqualTheReferenceHullInsideAndAcrossTheBox(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long box = 1L << 31;
        for (int stream = 0; stream < 40; stream++) {
            int n = 1 + r.nextInt(stream % 4 == 0 ? 12 : 800);
            long u0 = switch (stream % 5) {
                case 0 -> 0;
                case 1 -> r.nextLong(-(1L << 40), 1L << 40);
                case 2 -> (1L << 62) - 1 - r.nextLong(box); // near the box's limit: no box or a box
                case 3 -> -(1L << 62) + r.nextLong(box);
                default -> r.nextLong(1L << 50);
            };
            long v0 = switch (stream % 3) {
                case 0 -> r.nextLong(-(1L << 40), 1L << 40);
                case 1 -> stream % 2 == 0 ? (1L << 62) - 1 - r.nextLong(1L << 30) : -(1L << 62) + r.nextLong(1L << 30);
                default -> 0;
            };
            // span of u: inside the box, exactly its width, or beyond it
            long spanU = switch (r.nextInt(4)) {
                case 0 -> box - 1;
                case 1 -> box;
                case 2 -> box * (2 + r.nextInt(4));
                default -> 1 + r.nextLong(250_000_000L);
            };
            // band of v: inside the box's half height, at its edges, or wide
            long band = switch (r.nextInt(4)) {
                case 0 -> (1L << 30) - 1;
                case 1 -> 1L << 30;
                case 2 -> 1L << (31 + r.nextInt(8));
                default -> 1 + r.nextLong(100_000);
            };
            long slope = r.nextInt(3) - 1;
            long[] u = new long[n];
            long[] v = new long[n];
            long prev = u0;
            for (int i = 0; i < n; i++) {
                long step = Math.max(1, spanU / Math.max(1, n));
                long ui = i == 0 ? u0 : prev + r.nextLong(step) * (r.nextInt(10) == 0 ? 0 : 1);
                if (r.nextInt(40) == 0 && i > 0) {
                    ui = prev - r.nextLong(step * 4 + 1); // late
                }
                if (i == n - 1 && r.nextBoolean()) {
                    ui = u0 + spanU; // the span's far edge
                }
                long vi;
                switch (r.nextInt(6)) {
                    case 0 -> vi = v0 + slope * (ui - u0) / 1000; // on a line: collinear runs
                    case 1 -> vi = i > 0 ? v[i - 1] : v0; // repeated v
                    case 2 -> vi = v0 + (r.nextBoolean() ? band : -band); // the band's edges
                    default -> vi = v0 + slope * (ui - u0) / 1000 + r.nextLong(-band, band + 1);
                }
                if (i > 0 && r.nextInt(30) == 0) {
                    ui = u[i - 1];
                    vi = v[i - 1]; // the same point again
                }
                u[i] = ui;
                v[i] = vi;
                prev = Math.max(prev, ui);
            }
            for (HalfHull.Side side : HalfHull.Side.values()) {
                HalfHull h = new HalfHull(side);
                for (int i = 0; i < n; i++) {
                    h.add(u[i], v[i]);
                }
                assertReferenceHull(h, u, v);
                // reused after a clear, for another stream (a ring slot's hulls are)
                h.clear();
                for (int i = n - 1; i >= 0; i -= 2) {
                    h.add(u[i], v[i]);
                }
                long[] ru = new long[(n + 1) / 2];
                long[] rv = new long[ru.length];
                for (int i = n - 1, k = 0; i >= 0; i -= 2, k++) {
                    ru[k] = u[i];
                    rv[k] = v[i];
                }
                assertReferenceHull(h, ru, rv);
            }
        }
    }

    /**
     * A hull made by {@link HalfHull#copyOf} or by a shifted merge into an empty one (vertices
     * written without pushes) takes further pushes as one that pushed its points: inside the box,
     * or outside it when the copy's vertices or the shift leave it.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void copiedAndShiftedHullsTakeFurtherPushesExactly(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int stream = 0; stream < 20; stream++) {
            int n = 2 + r.nextInt(400);
            long span = stream % 2 == 0 ? 200_000_000L : 3L << 31;
            long[] u = new long[n];
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                u[i] = span * i / n + r.nextLong(span / n + 1);
                v[i] = r.nextLong(stream % 3 == 0 ? 1L << 31 : 1_000_000);
            }
            int half = n / 2;
            long du = stream % 4 == 3 ? (1L << 62) - span * 4 : r.nextLong(-(1L << 40), 1L << 40);
            long dv = stream % 5 == 4 ? -(1L << 62) + (1L << 32) : r.nextLong(-(1L << 40), 1L << 40);
            for (HalfHull.Side side : HalfHull.Side.values()) {
                HalfHull first = new HalfHull(side);
                for (int i = 0; i < half; i++) {
                    first.add(u[i], v[i]);
                }
                // the copies are hulls that were used, then emptied: nothing of their past counts
                HalfHull copy = usedThenCleared(side, r);
                copy.copyOf(first);
                HalfHull shifted = usedThenCleared(side, r);
                shifted.addAllShifted(first, du, dv);
                long[] su = new long[n];
                long[] sv = new long[n];
                for (int i = 0; i < n; i++) {
                    su[i] = u[i] + du;
                    sv[i] = v[i] + dv;
                }
                for (int i = half; i < n; i++) {
                    copy.add(u[i], v[i]);
                    shifted.add(su[i], sv[i]);
                }
                assertReferenceHull(copy, u, v);
                assertReferenceHull(shifted, su, sv);
            }
        }
    }

    /** A hull that took points near the origin (inside a box there), then was cleared. */
    private static HalfHull usedThenCleared(HalfHull.Side side, SplittableRandom r) {
        HalfHull h = new HalfHull(side);
        for (int i = 0; i < 50; i++) {
            h.add(i * 1000L, r.nextLong(1000));
        }
        h.clear();
        return h;
    }

    /**
     * Vertices copied in from far away (differences whose products overflow 64 bits), then points
     * pushed near the origin, where an emptied hull's earlier points had been: the pushes test
     * against the copied vertices exactly.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void pointsNearAnEarlierBoxAfterFarVerticesAreCopiedIn(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (HalfHull.Side side : HalfHull.Side.values()) {
            long sign = side == HalfHull.Side.LOWER ? 1 : -1;
            int n = 30;
            long[] u = new long[2 * n];
            long[] v = new long[2 * n];
            HalfHull far = new HalfHull(side);
            for (int i = 0; i < n; i++) {
                u[i] = -(1L << 55) + i * (1L << 50) + r.nextLong(1L << 40);
                // a convex curve of large v: every point a vertex, products of differences near 2^100
                v[i] = sign * (((long) (n - i) * (n - i) << 40) + r.nextLong(1L << 30));
                far.add(u[i], v[i]);
            }
            for (int i = n; i < 2 * n; i++) {
                u[i] = (i - n) * 1000L;
                v[i] = sign * r.nextLong(1000);
            }
            HalfHull copy = usedThenCleared(side, r);
            copy.copyOf(far);
            HalfHull shifted = usedThenCleared(side, r);
            shifted.addAllShifted(far, 0, 0);
            for (int i = n; i < 2 * n; i++) {
                copy.add(u[i], v[i]);
                shifted.add(u[i], v[i]);
            }
            assertReferenceHull(copy, u, v);
            assertReferenceHull(shifted, u, v);
        }
    }

    /**
     * Differences that do not fit in a long give ArithmeticException, never a hull, whether the
     * first point lies near the ends of the long range (no box: every test exact) or not.
     */
    @Test
    void differencesBeyondALongThrowWhereverTheFirstPointIs() {
        long[][] starts = {{0, Long.MIN_VALUE + 5}, {0, Long.MAX_VALUE - 5}, {0, -(1L << 62)}, {1L << 62, 0}, {0, 0}};
        for (long[] start : starts) {
            for (HalfHull.Side side : HalfHull.Side.values()) {
                HalfHull h = new HalfHull(side);
                h.add(start[0], start[1]);
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
                    h.add(start[0] + 10, Long.MAX_VALUE - 5);
                    h.add(start[0] + 20, Long.MIN_VALUE + 5);
                    h.add(start[0] + 30, Long.MAX_VALUE - 5);
                    h.add(start[0] + 40, Long.MIN_VALUE + 5);
                    h.size();
                }).as("first point %d, %d, %s", start[0], start[1], side)
                        .isInstanceOf(ArithmeticException.class);
            }
        }
    }

    private static long[][] sortedCopy(long[] u, long[] v) {
        long[] su = u.clone();
        long[] sv = v.clone();
        HalfHull.sortByU(su, sv, su.length);
        return new long[][] {su, sv};
    }
}
