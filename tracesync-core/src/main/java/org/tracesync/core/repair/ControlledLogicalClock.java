package org.tracesync.core.repair;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.RepairMoves;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MessageEnds;

/**
 * The controlled logical clock (Rabenseifner 1997; Becker, Rabenseifner, Wolf: "Implications of
 * non-constant clock drifts for the timestamps of concurrent events"; Scalasca's
 * {@code --time-correct}): a repair pass for what the fitted transforms leave inverted (a single
 * absurd message, a pair left in fallback, messages inside a bucket that holds a clock step).
 *
 * <p>Each node's message events (sends and receives, in local order) get their corrected times
 * C = transform(t). Then, with γ &lt; 1 and μ the minimum latency:
 * <ul>
 *   <li><b>forward</b>: LC(e_i) = max(C(e_i), LC(e_{i−1}) + γ·(C(e_i) − C(e_{i−1}))), and for a
 *       receive also ≥ LC(its send) + μ. A receive that would arrive before its send jumps
 *       forward; the events after it keep at least γ of their original spacing until they
 *       rejoin their corrected times (forward amortization). Iterated over the nodes until
 *       nothing changes (values only grow, so it terminates).</li>
 *   <li><b>backward</b>: the events in the window before a jump of J move forward by a linear
 *       ramp J·(1 − x/W), W = J/(1 − γ) (x = distance before the jump on the corrected clock), so
 *       local intervals there stretch by at most 1 − γ instead of one gap absorbing J; a send is
 *       never moved past (its receive − μ). Then the forward pass again.</li>
 * </ul>
 * The result says what moved: events moved, largest and mean shift, largest relative change of a
 * local interval, and the repaired time of every moved event (for {@code apply}).
 *
 * <p>Three passes: the fit's inverted messages are located first (O(inverted) memory; a message
 * end around a clock step takes the reading its other end allows, {@link MessageEnds}, so a
 * message the fit keeps forward on its side of a step is not counted); only the
 * messages within W = 4·J_max/(1 − γ) + 1 s of one (reference time, J_max the worst inversion)
 * are then kept and repaired, since amortization never reaches further. Memory O(messages near
 * a violation), capped by the heap (beyond it the repair is skipped and says why). Cost
 * O(E log E) for the per-node sort plus O(E) per round; rounds ≈ the longest chain of repaired
 * messages (a few).
 */
public final class ControlledLogicalClock {

    /** Rounds of the forward pass before giving up on a causal cycle. */
    static final int MAX_ROUNDS = 200;

    /** Default γ: local intervals keep at least 99 % of their length. */
    public static final double DEFAULT_GAMMA = 0.99;

    /**
     * What the repair did.
     *
     * @param events          message events considered (two per message)
     * @param violationsBefore messages received before they were sent (+ μ), before repair
     * @param violationsAfter  the same after repair (0 unless the rounds were capped)
     * @param moved           events whose time changed
     * @param maxShift        largest shift (ns)
     * @param meanShift       mean shift over the moved events (ns)
     * @param maxStretch      largest relative change of an interval between consecutive events of
     *                        one node, |new / old − 1| (0.01 = 1 %)
     * @param moves           per node (input order): one row {local time, repaired reference time,
     *                        reading before the repair} per moved event, sorted ({@link RepairMoves})
     * @param skipped         why the repair did not run (empty when it ran)
     */
    public record Repair(long events, long violationsBefore, long violationsAfter, long moved, double maxShift,
                         double meanShift, double maxStretch, List<long[][]> moves, String skipped) {
    }

    private ControlledLogicalClock() {
    }

    /**
     * True when the fit may have left messages inverted: a fallback pair; a piecewise pair with a
     * bucket no line fits (a step inside) or a break; or a piecewise pair among more than two
     * nodes (path composition protects only the pairs on its paths). A piecewise fit without
     * those inverts nothing, so the repair's second pass and O(messages) memory are spared.
     */
    public static boolean worthRunning(List<PairEstimate> pairs, int nodes) {
        for (PairEstimate p : pairs) {
            if (p.quality() == Quality.FALLBACK) {
                return true;
            }
            if (p.quality() == Quality.PIECEWISE
                    && (nodes > 2 || p.piecewise().unresolved() > 0 || p.piecewise().breaks() > 0)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The messages {@code result}'s transforms leave inverted (received before their send +
     * {@code minLatency}, within a reference group; an end around a clock step placed by its other
     * end, as {@code eval} does): the repair's detection pass alone, for {@code --repair never}.
     * One pass over the input, O(1) memory.
     */
    public static long inversionsAfterFit(SyncResult result, MessageInput input, long minLatency) throws IOException {
        int n = result.nodes().size();
        ClockTransform[] transforms = new ClockTransform[n];
        int[] group = groups(result, transforms);
        long mu = Math.max(1, minLatency);
        long[] ends = new long[2];
        long[] inverted = {0};
        input.readMessages((MessageSink) (s, r, st, rt) -> {
            if (s != r && group[s] == group[r]) {
                place(transforms[s], st, transforms[r], rt, ends);
                if (ends[1] < ends[0] + mu) {
                    inverted[0]++;
                }
            }
        });
        return inverted[0];
    }

    /** Each node's reference group (unsynchronized nodes are groups of their own), its transform into {@code transforms}. */
    private static int[] groups(SyncResult result, ClockTransform[] transforms) {
        int[] group = new int[transforms.length];
        java.util.Map<String, Integer> groups = new java.util.HashMap<>();
        for (int i = 0; i < transforms.length; i++) {
            NodeResult node = result.nodes().get(i);
            transforms[i] = node.transform();
            group[i] = groups.computeIfAbsent(node.reference(), k -> groups.size());
        }
        return group;
    }

    /**
     * Runs the repair over {@code input} for every reference group of {@code result} and returns
     * the result with the moves, statistics ({@code stats.repair_*}) and a warning saying what
     * moved (never silent). {@code minLatency}: τmin in ns (0 when unknown).
     */
    public static SyncResult applyTo(SyncResult result, MessageInput input, long minLatency) throws IOException {
        int n = result.nodes().size();
        ClockTransform[] transforms = new ClockTransform[n];
        int[] group = groups(result, transforms);
        Repair r = repair(input, transforms, group, minLatency, DEFAULT_GAMMA);
        java.util.Map<String, Object> stats = new java.util.LinkedHashMap<>(result.stats());
        stats.put("repair", "controlled logical clock");
        stats.put("repair_inversions_before", r.violationsBefore());
        stats.put("repair_inversions_after", r.violationsAfter());
        stats.put("repair_events_moved", r.moved());
        stats.put("repair_max_shift_ns", r.maxShift());
        stats.put("repair_mean_shift_ns", r.meanShift());
        stats.put("repair_max_stretch", r.maxStretch());
        List<String> warnings = new ArrayList<>(result.warnings());
        if (!r.skipped().isEmpty()) {
            stats.put("repair", "skipped");
            warnings.add("controlled logical clock skipped: " + r.violationsBefore() + " messages stay inverted: " + r.skipped());
        } else if (r.moved() > 0) {
            warnings.add(String.format(java.util.Locale.ROOT,
                    "controlled logical clock: %d message%s inverted after the fit; moved %d of %d events "
                            + "(max shift %.3f us, mean %.3f us, largest local interval change %.2f %%); %d inverted after repair",
                    r.violationsBefore(), r.violationsBefore() == 1 ? " was" : "s were", r.moved(), r.events(),
                    r.maxShift() / 1e3, r.meanShift() / 1e3, 100 * r.maxStretch(), r.violationsAfter()));
        }
        java.util.Map<String, long[][]> repairs = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            if (r.moves().get(i).length > 0) {
                repairs.put(result.nodes().get(i).name(), r.moves().get(i));
            }
        }
        return new SyncResult(result.reference(), result.nodes(), result.pairs(), stats, warnings, repairs);
    }

    /**
     * Repairs the corrected times of every message of {@code input} under {@code transforms}
     * (node order), with minimum latency {@code minLatency} ns (at least 1 ns is enforced: a
     * receive strictly after its send) and amortization factor {@code gamma} in (0, 1).
     * Only messages between nodes of one reference group should be passed a common transform set;
     * {@code group[i]} names node i's group, and messages across groups are ignored.
     */
    public static Repair repair(MessageInput input, ClockTransform[] transforms, int[] group, long minLatency,
                                double gamma) throws IOException {
        if (!(gamma > 0 && gamma < 1)) {
            throw new IllegalArgumentException("gamma must be in (0, 1), got " + gamma);
        }
        long mu = Math.max(1, minLatency);
        int n = transforms.length;
        // pass 1: where (reference time) the fit leaves messages inverted, and by how much at most
        long[][] spots = {new long[16]};
        int[] spotCount = {0};
        long[] worst = {0};
        long[] ends = new long[2];
        input.readMessages((MessageSink) (s, r, st, rt) -> {
            if (s == r || group[s] != group[r]) {
                return;
            }
            place(transforms[s], st, transforms[r], rt, ends);
            long cs = ends[0];
            long cr = ends[1];
            if (cr < cs + mu) {
                if (spotCount[0] == spots[0].length) {
                    spots[0] = Arrays.copyOf(spots[0], spotCount[0] * 2);
                }
                spots[0][spotCount[0]++] = cs;
                worst[0] = Math.max(worst[0], cs + mu - cr);
            }
        });
        if (spotCount[0] == 0) {
            return new Repair(0, 0, 0, 0, 0, 0, 0, emptyMoves(n), "");
        }
        // pass 2: only the messages near a violation (reference time within W of one): a jump J
        // is amortized over J / (1 − γ) on either side, cascades stay within a few times that
        long window = (long) Math.min(1e15, 4 * worst[0] / (1 - gamma)) + 1_000_000_000L;
        long[] near = windows(spots[0], spotCount[0], window);
        long cap = Runtime.getRuntime().maxMemory() / BYTES_PER_MESSAGE;
        EventLog log = new EventLog(n);
        try {
            input.readMessages((MessageSink) (s, r, st, rt) -> {
                if (s == r || group[s] != group[r]) {
                    return;
                }
                place(transforms[s], st, transforms[r], rt, ends);
                if (inside(near, ends[0]) || inside(near, ends[1])) {
                    if (log.messages >= cap) {
                        throw new TooMany();
                    }
                    log.add(s, r, st, rt, ends[0], ends[1]);
                }
            });
        } catch (TooMany e) {
            return new Repair(0, spotCount[0], spotCount[0], 0, 0, 0, 0, emptyMoves(n), String.format(java.util.Locale.ROOT,
                    "more than %d messages lie near the %d inverted ones, too many for this heap (%d MB); "
                            + "run again with a larger heap (TRACESYNC_JAVA_OPTS=-Xmx...)", cap, spotCount[0],
                    Runtime.getRuntime().maxMemory() >> 20));
        }
        return log.repair(transforms, mu, gamma);
    }

    /**
     * The fitted reference times {send, receive} of a message into {@code out}: each end's local
     * time's segment, except that an end around a clock step takes the reading its other end
     * allows ({@link MessageEnds}), as {@code eval} places it.
     */
    private static void place(ClockTransform sender, long st, ClockTransform receiver, long rt, long[] out) {
        long cs = sender.apply(st);
        long cr = receiver.apply(rt);
        if (!sender.isLinear() || !receiver.isLinear()) {
            long placedSend = MessageEnds.send(sender, st, cr);
            cr = MessageEnds.receive(receiver, rt, cs);
            cs = placedSend;
        }
        out[0] = cs;
        out[1] = cr;
    }

    /** Heap needed per kept message (two events, their arrays while sorting and repairing). */
    private static final long BYTES_PER_MESSAGE = 300;

    /** Thrown to stop reading when the kept messages would not fit in the heap. */
    private static final class TooMany extends RuntimeException {
        TooMany() {
            super(null, null, false, false);
        }
    }

    private static List<long[][]> emptyMoves(int n) {
        List<long[][]> moves = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            moves.add(new long[0][]);
        }
        return moves;
    }

    /** Merged intervals [c − w, c + w] around the spots, as {from0, to0, from1, to1, …} sorted. */
    private static long[] windows(long[] spots, int count, long w) {
        long[] sorted = Arrays.copyOf(spots, count);
        Arrays.sort(sorted);
        long[] out = new long[2 * count];
        int m = 0;
        for (long c : sorted) {
            long from = c - w;
            long to = c + w;
            if (m > 0 && from <= out[m - 1]) {
                out[m - 1] = Math.max(out[m - 1], to);
            } else {
                out[m++] = from;
                out[m++] = to;
            }
        }
        return Arrays.copyOf(out, m);
    }

    private static boolean inside(long[] intervals, long t) {
        int lo = 0;
        int hi = intervals.length / 2 - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (t < intervals[2 * mid]) {
                hi = mid - 1;
            } else if (t > intervals[2 * mid + 1]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    /** Every message event, per node, with the links between sends and receives. */
    private static final class EventLog {
        final int n;
        long[][] local;
        /** Each event's fitted reference time (its reading, {@link #place}). */
        long[][] fitted;
        int[] count;
        // message k: send = (sNode[k], sIdx[k]) and receive = (rNode[k], rIdx[k]) before sorting
        int[] sNode = new int[16];
        int[] rNode = new int[16];
        int[] sIdx = new int[16];
        int[] rIdx = new int[16];
        int messages;

        EventLog(int n) {
            this.n = n;
            local = new long[n][16];
            fitted = new long[n][16];
            count = new int[n];
        }

        int push(int node, long t, long c) {
            if (count[node] == local[node].length) {
                local[node] = Arrays.copyOf(local[node], count[node] * 2);
                fitted[node] = Arrays.copyOf(fitted[node], count[node] * 2);
            }
            local[node][count[node]] = t;
            fitted[node][count[node]] = c;
            return count[node]++;
        }

        void add(int s, int r, long st, long rt, long cs, long cr) {
            if (messages == sNode.length) {
                int cap = messages * 2;
                sNode = Arrays.copyOf(sNode, cap);
                rNode = Arrays.copyOf(rNode, cap);
                sIdx = Arrays.copyOf(sIdx, cap);
                rIdx = Arrays.copyOf(rIdx, cap);
            }
            sNode[messages] = s;
            rNode[messages] = r;
            sIdx[messages] = push(s, st, cs);
            rIdx[messages] = push(r, rt, cr);
            messages++;
        }

        Repair repair(ClockTransform[] transforms, long mu, double gamma) {
            // sort each node's events by their fitted reference time, then local time (the local
            // order except around a backward step, where the clock read the same times twice);
            // remember where each original index went
            int[][] position = new int[n][];
            long[][] t = new long[n][];
            long[][] c = new long[n][];
            for (int i = 0; i < n; i++) {
                int m = count[i];
                Integer[] order = new Integer[m];
                for (int k = 0; k < m; k++) {
                    order[k] = k;
                }
                long[] times = local[i];
                long[] refs = fitted[i];
                Arrays.sort(order, (x, y) -> refs[x] != refs[y] ? Long.compare(refs[x], refs[y]) : Long.compare(times[x], times[y]));
                position[i] = new int[m];
                t[i] = new long[m];
                c[i] = new long[m];
                for (int k = 0; k < m; k++) {
                    position[i][order[k]] = k;
                    t[i][k] = times[order[k]];
                    c[i][k] = refs[order[k]];
                }
                local[i] = null;
                fitted[i] = null;
            }
            // for each receive event: its send (node, position); -1 for sends
            int[][] sendNode = new int[n][];
            int[][] sendPos = new int[n][];
            for (int i = 0; i < n; i++) {
                sendNode[i] = new int[count[i]];
                sendPos[i] = new int[count[i]];
                Arrays.fill(sendNode[i], -1);
            }
            // for each send event: its receive (to cap backward moves)
            int[][] recvNode = new int[n][];
            int[][] recvPos = new int[n][];
            for (int i = 0; i < n; i++) {
                recvNode[i] = new int[count[i]];
                recvPos[i] = new int[count[i]];
                Arrays.fill(recvNode[i], -1);
            }
            long before = 0;
            for (int k = 0; k < messages; k++) {
                int rp = position[rNode[k]][rIdx[k]];
                int sp = position[sNode[k]][sIdx[k]];
                sendNode[rNode[k]][rp] = sNode[k];
                sendPos[rNode[k]][rp] = sp;
                recvNode[sNode[k]][sp] = rNode[k];
                recvPos[sNode[k]][sp] = rp;
                if (c[rNode[k]][rp] < c[sNode[k]][sp] + mu) {
                    before++;
                }
            }
            long[][] lc = new long[n][];
            for (int i = 0; i < n; i++) {
                lc[i] = c[i].clone();
            }
            int rounds = forward(lc, c, sendNode, sendPos, mu, gamma);
            backward(lc, c, recvNode, recvPos, mu, gamma);
            rounds += forward(lc, c, sendNode, sendPos, mu, gamma);
            // report
            long after = 0;
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < count[i]; k++) {
                    if (sendNode[i][k] >= 0 && lc[i][k] < lc[sendNode[i][k]][sendPos[i][k]] + mu) {
                        after++;
                    }
                }
            }
            long moved = 0;
            double maxShift = 0;
            double sumShift = 0;
            double maxStretch = 0;
            List<long[][]> moves = new ArrayList<>();
            long events = 0;
            for (int i = 0; i < n; i++) {
                List<long[]> mine = new ArrayList<>();
                for (int k = 0; k < count[i]; k++) {
                    events++;
                    long shift = lc[i][k] - c[i][k];
                    if (shift != 0) {
                        moved++;
                        maxShift = Math.max(maxShift, shift);
                        sumShift += shift;
                        mine.add(new long[] {t[i][k], lc[i][k], c[i][k]});
                    }
                    if (k > 0 && c[i][k] > c[i][k - 1]) {
                        double ratio = (double) (lc[i][k] - lc[i][k - 1]) / (double) (c[i][k] - c[i][k - 1]);
                        maxStretch = Math.max(maxStretch, Math.abs(ratio - 1));
                    }
                }
                moves.add(RepairMoves.sorted(mine));
            }
            return new Repair(events, before, after, moved, maxShift, moved == 0 ? 0 : sumShift / moved, maxStretch, moves, "");
        }

        /**
         * Forward passes until nothing changes, at most {@link #MAX_ROUNDS}: messages that are
         * impossible in true time (a receive before its send on one clock) can close a causal
         * cycle that no clock satisfies; the repair then stops and reports what stays inverted.
         */
        int forward(long[][] lc, long[][] c, int[][] sendNode, int[][] sendPos, long mu, double gamma) {
            int rounds = 0;
            boolean changed = true;
            while (changed && rounds < MAX_ROUNDS) {
                changed = false;
                rounds++;
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < count[i]; k++) {
                        long v = lc[i][k];
                        if (k > 0) {
                            long gap = c[i][k] - c[i][k - 1];
                            v = Math.max(v, lc[i][k - 1] + (long) Math.ceil(gamma * Math.max(0, gap)));
                        }
                        if (sendNode[i][k] >= 0) {
                            v = Math.max(v, lc[sendNode[i][k]][sendPos[i][k]] + mu);
                        }
                        if (v != lc[i][k]) {
                            lc[i][k] = v;
                            changed = true;
                        }
                    }
                }
            }
            return rounds;
        }

        /** Spreads each jump over the window before it (a linear ramp), sends capped by their receive. */
        void backward(long[][] lc, long[][] c, int[][] recvNode, int[][] recvPos, long mu, double gamma) {
            for (int i = 0; i < n; i++) {
                for (int k = count[i] - 1; k > 0; k--) {
                    long jump = (lc[i][k] - c[i][k]) - (lc[i][k - 1] - c[i][k - 1]);
                    if (jump <= 0) {
                        continue;
                    }
                    double window = jump / (1 - gamma);
                    for (int j = k - 1; j >= 0; j--) {
                        double x = (double) (c[i][k] - c[i][j]);
                        if (x >= window) {
                            break;
                        }
                        long target = c[i][j] + (lc[i][k] - c[i][k]) - (long) Math.ceil(jump * x / window);
                        if (recvNode[i][j] >= 0) {
                            target = Math.min(target, lc[recvNode[i][j]][recvPos[i][j]] - mu);
                        }
                        if (target > lc[i][j]) {
                            lc[i][j] = target;
                        }
                    }
                }
            }
        }
    }
}
