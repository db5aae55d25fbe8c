package org.tracesync.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.global.GlobalReduction;

/**
 * Measured end-to-end run of the global reduction (docs/PERFORMANCE.md, "Global reduction"):
 * a seeded random mesh of N nodes with about L links each (a random spanning tree plus random
 * extra links), linear clocks on epoch-sized timestamps (offsets ±100 ms, drifts ±50 ppm), per
 * link and direction a minimum latency uniform in [5, 400] µs plus an exponential tail (mean
 * 10 µs), M messages each way over 60 s. Times path composition and the global program
 * (wall and CPU of the whole process: the joint bounds run on several threads), counts inverted
 * messages after each and checks the bounds against the true clocks at every message timestamp.
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.GlobalReductionRun [N] [L] [M] [seed] [instants] [joint-bound cap]</pre>
 */
public final class GlobalReductionRun {

    private static final long EPOCH = 1_700_000_000_000_000_000L;

    private GlobalReductionRun() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int perNode = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int messages = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
        int instants = args.length > 4 ? Integer.parseInt(args[4]) : GlobalReduction.MAX_BOUND_INSTANTS;
        // groups of more non-reference nodes than this get local joint bounds (GlobalProgram.localBounds)
        int jointCap = args.length > 5 ? Integer.parseInt(args[5]) : GlobalReduction.maxJointBoundNodes();
        SplittableRandom random = new SplittableRandom(seed);
        double[] offset = new double[n];
        double[] drift = new double[n];
        for (int i = 1; i < n; i++) {
            offset[i] = random.nextDouble(-100e6, 100e6);
            drift[i] = random.nextDouble(-50e-6, 50e-6);
        }
        TreeSet<Long> links = new TreeSet<>();
        for (int i = 1; i < n; i++) {
            links.add((long) random.nextInt(i) * n + i);
        }
        // a full mesh has n(n-1)/2 links: asking for more would never end
        long wanted = Math.min((long) n * perNode / 2, (long) n * (n - 1) / 2);
        if (wanted < (long) n * perNode / 2) {
            System.out.printf(Locale.ROOT, "%d links per node asked, a %d-node mesh has at most %d: full mesh%n",
                    perNode, n, n - 1);
        }
        while (links.size() < wanted) {
            int a = random.nextInt(n);
            int b = random.nextInt(n);
            if (a != b) {
                links.add((long) Math.min(a, b) * n + Math.max(a, b));
            }
        }
        PairAccumulators acc = new PairAccumulators(n);
        List<long[]> sent = new ArrayList<>();
        double duration = 60e9;
        for (long l : links) {
            int a = (int) (l / n);
            int b = (int) (l % n);
            for (int[] dir : new int[][] {{a, b}, {b, a}}) {
                double min = random.nextDouble(5_000, 400_000);
                for (int k = 0; k < messages; k++) {
                    double t = random.nextDouble() * duration;
                    double latency = min - 10_000 * Math.log(1 - random.nextDouble());
                    long s = EPOCH + Math.round(t + offset[dir[0]] + drift[dir[0]] * t);
                    double tr = t + latency;
                    long r = EPOCH + Math.round(tr + offset[dir[1]] + drift[dir[1]] * tr);
                    acc.message(dir[0], dir[1], s, r);
                    sent.add(new long[] {dir[0], dir[1], s, r});
                }
            }
        }
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(new NodeInfo("n" + i, "sim", List.of()));
        }
        List<PairEstimate> pairs = new ArrayList<>();
        for (PairAccumulator p : acc.nonEmptyPairs()) {
            pairs.add(ConvexHullEstimator.estimate(p));
        }
        // CPU of the whole process: the joint bounds run on several threads
        com.sun.management.OperatingSystemMXBean bean =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long c0 = bean.getProcessCpuTime();
        long w0 = System.nanoTime();
        SyncResult path = PathReduction.reduce(nodes, acc, pairs, "n0");
        long c1 = bean.getProcessCpuTime();
        long w1 = System.nanoTime();
        // when the transforms are solved, from the reduction's progress messages (the bounds' LPs
        // run meanwhile on other threads, so the process CPU at that moment includes theirs)
        long[] transformsDone = {0, 0};
        SyncResult global = GlobalReduction.reduce(nodes, acc, pairs, "n0", GlobalReduction.Mode.EVERY_GROUP, 0.0, instants,
                jointCap, phase -> {
                    if (transformsDone[0] == 0 && phase.contains("transforms of group")) {
                        transformsDone[0] = System.nanoTime();
                        transformsDone[1] = bean.getProcessCpuTime();
                    }
                });
        long c2 = bean.getProcessCpuTime();
        long w2 = System.nanoTime();
        System.out.printf(Locale.ROOT, "nodes %d, links %d, messages %d, instants cap %d, joint-bound cap %d%n",
                n, links.size(), sent.size(), instants, jointCap);
        System.out.printf(Locale.ROOT, "path:   wall %.3f s, cpu %.3f s, inversions %d, %s%n",
                (w1 - w0) / 1e9, (c1 - c0) / 1e9, inversions(path, sent), truth(path, offset, drift, sent));
        System.out.printf(Locale.ROOT, "global: wall %.3f s, cpu %.3f s, inversions %d, %s%n        %s%n",
                (w2 - w1) / 1e9, (c2 - c1) / 1e9, inversions(global, sent), truth(global, offset, drift, sent),
                global.stats());
        if (transformsDone[0] != 0) {
            System.out.printf(Locale.ROOT, "        transforms solved after: wall %.3f s, cpu %.3f s (all threads, bounds included)%n",
                    (transformsDone[0] - w1) / 1e9, (transformsDone[1] - c1) / 1e9);
        }
    }

    /**
     * At every message timestamp (sender's and receiver's): is the true reference (n0) time
     * inside the node's bounds, and the largest error and mean bound width (ns).
     */
    private static String truth(SyncResult r, double[] offset, double[] drift, List<long[]> sent) {
        long samples = 0;
        long misses = 0;
        double maxError = 0;
        double widths = 0;
        for (long[] m : sent) {
            for (int side = 0; side < 2; side++) {
                int node = (int) m[side];
                long local = m[2 + side];
                var result = r.nodes().get(node);
                if (node == 0 || !result.reference().equals("n0")) {
                    continue;
                }
                double t = (local - EPOCH - offset[node]) / (1 + drift[node]); // true time since EPOCH
                double error = result.transform().correction(local) - (t - (local - EPOCH));
                double[] mp = result.bounds().at(local);
                samples++;
                if (error > mp[0] || -error > mp[1]) {
                    misses++;
                }
                maxError = Math.max(maxError, Math.abs(error));
                widths += mp[0] + mp[1];
            }
        }
        return String.format(Locale.ROOT, "truth outside bounds at %d of %d instants, max error %.0f ns, mean bound width %.0f ns",
                misses, samples, maxError, widths / samples);
    }

    private static int inversions(SyncResult r, List<long[]> sent) {
        int count = 0;
        for (long[] m : sent) {
            var s = r.nodes().get((int) m[0]);
            var d = r.nodes().get((int) m[1]);
            if (s.reference().equals(d.reference()) && d.transform().apply(m[3]) < s.transform().apply(m[2])) {
                count++;
            }
        }
        return count;
    }
}
