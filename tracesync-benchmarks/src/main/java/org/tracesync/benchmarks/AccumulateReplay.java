package org.tracesync.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.tracesync.core.accumulate.HalfHull;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.accumulate.TimeBuckets;

/**
 * One replay of a recorded message stream into {@link PairAccumulators} (or into the minimal sink),
 * for {@link AccumulateAlternation}: that class loads this one once per benchmarks jar, each in a
 * class loader that finds the jar's own {@code PairAccumulators} first, so that the two builds'
 * accumulators are timed by the same loop. Only arrays and longs cross the loaders.
 */
public final class AccumulateReplay {

    private AccumulateReplay() {
    }

    /**
     * Replays messages [0, n) into a new {@link PairAccumulators} of {@code nodes}; gives the
     * calling thread's CPU time of the replay (ns) and a digest of every pair's hulls, counts,
     * span and buckets (read after the timing).
     */
    public static long[] accumulate(int nodes, int[] sender, int[] receiver, long[] sendTime, long[] recvTime, int n) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        PairAccumulators acc = new PairAccumulators(nodes);
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            acc.message(sender[i], receiver[i], sendTime[i], recvTime[i]);
        }
        long used = cpu.getCurrentThreadCpuTime() - start;
        return new long[] {used, digest(acc)};
    }

    /**
     * The hull pushes alone, the floor of the accumulators' hull work: the messages' hull (pair and
     * direction), rebased point and sub-bucket changes (250 ms of a-time) are worked out before the
     * timing, which then only clears a hull at a new sub-bucket and pushes each point into it
     * ({@link HalfHull#add}: this build's). Gives the CPU time and the sum of the hulls' sizes
     * at each clear.
     */
    public static long[] pushes(int nodes, int[] sender, int[] receiver, long[] sendTime, long[] recvTime, int n) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        int[] hull = new int[n];
        long[] u = new long[n];
        long[] v = new long[n];
        boolean[] fresh = new boolean[n];
        long[] x0 = new long[nodes * nodes];
        long[] v0 = new long[nodes * nodes];
        boolean[] started = new boolean[nodes * nodes];
        long[] key = new long[nodes * nodes * 2];
        java.util.Arrays.fill(key, Long.MIN_VALUE);
        HalfHull[] hulls = new HalfHull[nodes * nodes * 2];
        for (int h = 0; h < hulls.length; h++) {
            hulls[h] = new HalfHull(h % 2 == 0 ? HalfHull.Side.LOWER : HalfHull.Side.UPPER);
        }
        int m = 0;
        for (int i = 0; i < n; i++) {
            int s = sender[i];
            int r = receiver[i];
            if (s == r) {
                continue;
            }
            boolean aToB = s < r;
            int pair = Math.min(s, r) * nodes + Math.max(s, r);
            long x = aToB ? sendTime[i] : recvTime[i];
            long y = aToB ? recvTime[i] : sendTime[i];
            if (!started[pair]) {
                started[pair] = true;
                x0[pair] = x;
                v0[pair] = y - x;
            }
            hull[m] = pair * 2 + (aToB ? 0 : 1);
            u[m] = x - x0[pair];
            v[m] = y - x - v0[pair];
            long k = Math.floorDiv(x, TimeBuckets.INITIAL_WIDTH / TimeBuckets.SUB_BUCKETS);
            fresh[m] = k != key[hull[m]];
            key[hull[m]] = k;
            m++;
        }
        long sizes = 0;
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < m; i++) {
            HalfHull h = hulls[hull[i]];
            if (fresh[i]) {
                sizes += h.isEmpty() ? 0 : h.size();
                h.clear();
            }
            h.add(u[i], v[i]);
        }
        long used = cpu.getCurrentThreadCpuTime() - start;
        return new long[] {used, sizes};
    }

    /**
     * The same stream into the least a pair sink does (a count and the least delay per ordered
     * pair: {@code MatchFloorRun}'s minimal pair update): the replay's own cost.
     */
    public static long[] minimal(int nodes, int[] sender, int[] receiver, long[] sendTime, long[] recvTime, int n) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long[] count = new long[nodes * nodes];
        long[] min = new long[nodes * nodes];
        java.util.Arrays.fill(min, Long.MAX_VALUE);
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            int p = sender[i] * nodes + receiver[i];
            count[p]++;
            long d = recvTime[i] - sendTime[i];
            if (d < min[p]) {
                min[p] = d;
            }
        }
        long used = cpu.getCurrentThreadCpuTime() - start;
        long h = 0;
        for (int p = 0; p < count.length; p++) {
            h = h * 31 + count[p] * 17 + min[p];
        }
        return new long[] {used, h};
    }

    /** A digest of what estimation reads: per pair its counts, span, origin, both hulls and every bucket. */
    static long digest(PairAccumulators acc) {
        long h = acc.messages();
        for (int n = 0; n < acc.nodes(); n++) {
            h = h * 31 + acc.first(n);
            h = h * 31 + acc.last(n);
        }
        List<PairAccumulator> pairs = acc.nonEmptyPairs();
        for (PairAccumulator p : pairs) {
            h = h * 31 + p.a() * 1009L + p.b();
            h = h * 31 + p.countAToB();
            h = h * 31 + p.countBToA();
            h = h * 31 + p.minX();
            h = h * 31 + p.maxX();
            h = h * 31 + p.x0();
            h = h * 31 + p.v0();
            h = hull(h, p.aToB());
            h = hull(h, p.bToA());
            TimeBuckets tb = p.timeBuckets();
            h = h * 31 + tb.width();
            for (TimeBuckets.Bucket b : tb.buckets()) {
                h = h * 31 + b.key();
                h = arr(arr(arr(arr(h, b.pu()), b.pv()), b.qu()), b.qv());
                TimeBuckets.Bucket f = tb.fine(b.key());
                h = arr(arr(arr(arr(h, f.pu()), f.pv()), f.qu()), f.qv());
            }
        }
        return h;
    }

    private static long hull(long h, HalfHull hull) {
        return arr(arr(h, hull.us()), hull.vs());
    }

    private static long arr(long h, long[] a) {
        h = h * 31 + a.length;
        for (long x : a) {
            h = h * 31 + x;
        }
        return h;
    }
}
