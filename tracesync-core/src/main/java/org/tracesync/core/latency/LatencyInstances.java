package org.tracesync.core.latency;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The measurements in a set of {@link LatencyEvents} (DESIGN §6b; Pääkkönen et al.), before
 * synchronization: every simple instance (start → stop on one node), every transition between
 * consecutive steps of a chained instance, and every chained instance's end to end (first → last
 * step); plus the causal pairs the chains give for synchronization.
 *
 * <p>Rules (never guessed, always counted):
 * <ul>
 *   <li>The steps an event has are the union of the step numbers seen in all its instances. An
 *       instance lacking one is <em>incomplete</em>: the transitions between its present,
 *       adjacent-in-the-event steps are measured, its end to end is not.</li>
 *   <li>A step seen twice in one instance is <em>duplicated</em>: no transition touching it and no
 *       end to end is measured, and it gives no causal pair.</li>
 *   <li>A simple instance needs exactly one start and one stop on one node; a stop without a
 *       start, a start without a stop, and repeated starts or stops are counted, not measured.</li>
 *   <li>Sequence numbers out of order: per node and event, an instance whose start (simple) or
 *       first step (chained) has a smaller sequence number than an earlier one's, in local time
 *       order. Counted only; the instance is still measured (the key is (event, seq)).</li>
 *   <li>Consecutive unique steps of an instance on two different nodes are a causal pair (the
 *       later step happens after the earlier one), used as a message for synchronization.</li>
 * </ul>
 *
 * <p>Cost: two index sorts, O(n log n) for n events; memory O(n) primitive arrays.
 */
public final class LatencyInstances {

    /** What a measurement is. */
    public enum Kind { SIMPLE, TRANSITION, END_TO_END }

    /** {@link Kind#values()} once: values() copies its array on every call. */
    private static final Kind[] KINDS = Kind.values();

    /** Counts of what could not be measured, per event name. */
    public static final class Anomalies {
        public long instances;
        public long measured;
        public long incomplete;
        public long duplicatedSteps;
        public long stopWithoutStart;
        public long startWithoutStop;
        public long repeated;
        public long seqOutOfOrder;
        public long stepsBackwardsInTime;

        /** True when nothing was wrong. */
        public boolean clean() {
            return incomplete == 0 && duplicatedSteps == 0 && stopWithoutStart == 0 && startWithoutStop == 0
                    && repeated == 0 && seqOutOfOrder == 0 && stepsBackwardsInTime == 0;
        }
    }

    private final LatencyEvents events;
    private final Measurements measurements;
    private final long[] pairs; // fromNode, toNode, tFrom, tTo per causal pair (packed in 4 longs)
    private final int pairCount;
    private final Anomalies[] simpleAnomalies;
    private final Anomalies[] chainAnomalies;
    private final int[][] stepsOfEvent;

    /** Measurements in columns. */
    public static final class Measurements {
        private byte[] kind = new byte[256];
        private int[] event = new int[256];
        private long[] seq = new long[256];
        private int[] fromStep = new int[256];
        private int[] toStep = new int[256];
        private int[] fromNode = new int[256];
        private int[] toNode = new int[256];
        private long[] tFrom = new long[256];
        private long[] tTo = new long[256];
        private int size;

        void add(Kind k, int e, long s, int fs, int ts, int fn, int tn, long tf, long tt) {
            if (size == kind.length) {
                int c = size * 2;
                kind = Arrays.copyOf(kind, c);
                event = Arrays.copyOf(event, c);
                seq = Arrays.copyOf(seq, c);
                fromStep = Arrays.copyOf(fromStep, c);
                toStep = Arrays.copyOf(toStep, c);
                fromNode = Arrays.copyOf(fromNode, c);
                toNode = Arrays.copyOf(toNode, c);
                tFrom = Arrays.copyOf(tFrom, c);
                tTo = Arrays.copyOf(tTo, c);
            }
            kind[size] = (byte) k.ordinal();
            event[size] = e;
            seq[size] = s;
            fromStep[size] = fs;
            toStep[size] = ts;
            fromNode[size] = fn;
            toNode[size] = tn;
            tFrom[size] = tf;
            tTo[size] = tt;
            size++;
        }

        public int size() {
            return size;
        }

        public Kind kind(int i) {
            return KINDS[kind[i]];
        }

        public int event(int i) {
            return event[i];
        }

        public long seq(int i) {
            return seq[i];
        }

        public int fromStep(int i) {
            return fromStep[i];
        }

        public int toStep(int i) {
            return toStep[i];
        }

        public int fromNode(int i) {
            return fromNode[i];
        }

        public int toNode(int i) {
            return toNode[i];
        }

        public long timeFrom(int i) {
            return tFrom[i];
        }

        public long timeTo(int i) {
            return tTo[i];
        }
    }

    private LatencyInstances(LatencyEvents events, long[] pairs, int pairCount, Anomalies[] simple, Anomalies[] chain,
                             int[][] stepsOfEvent, Measurements m) {
        this.events = events;
        this.pairs = pairs;
        this.pairCount = pairCount;
        this.simpleAnomalies = simple;
        this.chainAnomalies = chain;
        this.stepsOfEvent = stepsOfEvent;
        this.measurements = m;
    }

    public static LatencyInstances find(LatencyEvents ev) {
        int events = ev.eventCount();
        Anomalies[] simple = new Anomalies[events];
        Anomalies[] chain = new Anomalies[events];
        Measurements m = new Measurements();
        int nSteps = 0;
        int nSimple = 0;
        for (int i = 0; i < ev.size(); i++) {
            byte k = ev.kind(i);
            if (k == LatencyEvents.STEP) {
                nSteps++;
            } else if (k == LatencyEvents.START || k == LatencyEvents.STOP) {
                nSimple++;
            }
        }
        int[] steps = new int[nSteps];
        int[] simples = new int[nSimple];
        int a = 0;
        int b = 0;
        for (int i = 0; i < ev.size(); i++) {
            byte k = ev.kind(i);
            if (k == LatencyEvents.STEP) {
                steps[a++] = i;
            } else if (k == LatencyEvents.START || k == LatencyEvents.STOP) {
                simples[b++] = i;
            }
        }
        // the steps of every event: the union over its instances
        List<TreeSet<Integer>> stepSets = new ArrayList<>();
        for (int e = 0; e < events; e++) {
            stepSets.add(new TreeSet<>());
        }
        for (int i : steps) {
            stepSets.get(ev.event(i)).add(ev.step(i));
        }
        int[][] stepsOfEvent = new int[events][];
        for (int e = 0; e < events; e++) {
            stepsOfEvent[e] = stepSets.get(e).stream().mapToInt(Integer::intValue).toArray();
        }

        // chained instances: sort by (event, seq, step, time)
        IndexSort.sort(steps, (x, y) -> {
            int c = Integer.compare(ev.event(x), ev.event(y));
            if (c == 0) {
                c = Long.compare(ev.seq(x), ev.seq(y));
            }
            if (c == 0) {
                c = Integer.compare(ev.step(x), ev.step(y));
            }
            return c != 0 ? c : Long.compare(ev.time(x), ev.time(y));
        });
        long[] pairs = new long[Math.max(4, nSteps * 4)];
        int pairCount = 0;
        int[] uniq = new int[16];
        for (int lo = 0; lo < steps.length; ) {
            int e = ev.event(steps[lo]);
            long s = ev.seq(steps[lo]);
            int hi = lo;
            while (hi < steps.length && ev.event(steps[hi]) == e && ev.seq(steps[hi]) == s) {
                hi++;
            }
            Anomalies an = chain[e] == null ? (chain[e] = new Anomalies()) : chain[e];
            an.instances++;
            // unique steps of the instance, in step order; duplicated ones are left out
            int nu = 0;
            boolean duplicated = false;
            for (int k = lo; k < hi; ) {
                int st = ev.step(steps[k]);
                int j = k;
                while (j < hi && ev.step(steps[j]) == st) {
                    j++;
                }
                if (j - k == 1) {
                    if (nu == uniq.length) {
                        uniq = Arrays.copyOf(uniq, nu * 2);
                    }
                    uniq[nu++] = steps[k];
                } else {
                    duplicated = true;
                }
                k = j;
            }
            int[] all = stepsOfEvent[e];
            boolean complete = !duplicated && nu == all.length;
            if (duplicated) {
                an.duplicatedSteps++;
            } else if (!complete) {
                an.incomplete++;
            }
            for (int k = 0; k + 1 < nu; k++) {
                int x = uniq[k];
                int y = uniq[k + 1];
                if (ev.node(x) != ev.node(y)) {
                    if (pairCount * 4 == pairs.length) {
                        pairs = Arrays.copyOf(pairs, pairs.length * 2);
                    }
                    pairs[pairCount * 4] = ev.node(x);
                    pairs[pairCount * 4 + 1] = ev.node(y);
                    pairs[pairCount * 4 + 2] = ev.time(x);
                    pairs[pairCount * 4 + 3] = ev.time(y);
                    pairCount++;
                } else if (ev.time(y) < ev.time(x)) {
                    an.stepsBackwardsInTime++;
                }
                // a transition is measured only between steps adjacent in the event's step list
                int pos = Arrays.binarySearch(all, ev.step(x));
                if (pos + 1 < all.length && all[pos + 1] == ev.step(y)) {
                    m.add(Kind.TRANSITION, e, s, ev.step(x), ev.step(y), ev.node(x), ev.node(y), ev.time(x), ev.time(y));
                }
            }
            if (complete && nu >= 2) {
                int x = uniq[0];
                int y = uniq[nu - 1];
                m.add(Kind.END_TO_END, e, s, ev.step(x), ev.step(y), ev.node(x), ev.node(y), ev.time(x), ev.time(y));
                an.measured++;
            }
            lo = hi;
        }

        // simple instances: sort by (node, event, seq, kind, time)
        IndexSort.sort(simples, (x, y) -> {
            int c = Integer.compare(ev.node(x), ev.node(y));
            if (c == 0) {
                c = Integer.compare(ev.event(x), ev.event(y));
            }
            if (c == 0) {
                c = Long.compare(ev.seq(x), ev.seq(y));
            }
            if (c == 0) {
                c = Byte.compare(ev.kind(x), ev.kind(y));
            }
            return c != 0 ? c : Long.compare(ev.time(x), ev.time(y));
        });
        for (int lo = 0; lo < simples.length; ) {
            int n = ev.node(simples[lo]);
            int e = ev.event(simples[lo]);
            long s = ev.seq(simples[lo]);
            int hi = lo;
            int starts = 0;
            int stops = 0;
            while (hi < simples.length && ev.node(simples[hi]) == n && ev.event(simples[hi]) == e && ev.seq(simples[hi]) == s) {
                if (ev.kind(simples[hi]) == LatencyEvents.START) {
                    starts++;
                } else {
                    stops++;
                }
                hi++;
            }
            Anomalies an = simple[e] == null ? (simple[e] = new Anomalies()) : simple[e];
            an.instances++;
            if (starts == 1 && stops == 1) {
                int x = simples[lo];
                int y = simples[lo + 1];
                m.add(Kind.SIMPLE, e, s, 0, 0, n, n, ev.time(x), ev.time(y));
                an.measured++;
            } else if (starts == 0) {
                an.stopWithoutStart++;
            } else if (stops == 0) {
                an.startWithoutStop++;
            } else {
                an.repeated++;
            }
            lo = hi;
        }

        // sequence numbers out of order: per (node, event), first record of each instance in time order
        countSeqOutOfOrder(ev, simple, chain, stepsOfEvent);
        return new LatencyInstances(ev, pairs, pairCount, simple, chain, stepsOfEvent, m);
    }

    private static void countSeqOutOfOrder(LatencyEvents ev, Anomalies[] simple, Anomalies[] chain, int[][] stepsOfEvent) {
        int[] idx = new int[ev.size()];
        int n = 0;
        for (int i = 0; i < ev.size(); i++) {
            byte k = ev.kind(i);
            if ((k == LatencyEvents.STEP && ev.step(i) == stepsOfEvent[ev.event(i)][0]) || k == LatencyEvents.START) {
                idx[n++] = i;
            }
        }
        idx = Arrays.copyOf(idx, n);
        IndexSort.sort(idx, (x, y) -> {
            int c = Integer.compare(ev.node(x), ev.node(y));
            if (c == 0) {
                c = Boolean.compare(ev.kind(x) == LatencyEvents.STEP, ev.kind(y) == LatencyEvents.STEP);
            }
            if (c == 0) {
                c = Integer.compare(ev.event(x), ev.event(y));
            }
            return c != 0 ? c : Long.compare(ev.time(x), ev.time(y));
        });
        for (int lo = 0; lo < n; ) {
            int hi = lo;
            boolean step = ev.kind(idx[lo]) == LatencyEvents.STEP;
            while (hi < n && ev.node(idx[hi]) == ev.node(idx[lo]) && (ev.kind(idx[hi]) == LatencyEvents.STEP) == step
                    && ev.event(idx[hi]) == ev.event(idx[lo])) {
                hi++;
            }
            long max = Long.MIN_VALUE;
            long count = 0;
            for (int k = lo; k < hi; k++) {
                long s = ev.seq(idx[k]);
                if (s < max) {
                    count++;
                }
                max = Math.max(max, s);
            }
            Anomalies[] target = step ? chain : simple;
            int e = ev.event(idx[lo]);
            if (count > 0 && target[e] != null) {
                target[e].seqOutOfOrder += count;
            }
            lo = hi;
        }
    }

    public LatencyEvents events() {
        return events;
    }

    public Measurements measurements() {
        return measurements;
    }

    /** Number of causal pairs the chains give (consecutive steps on different nodes). */
    public int causalPairs() {
        return pairCount;
    }

    /** Causal pair k: {fromNode, toNode, tFrom, tTo}. */
    public void causalPair(int k, long[] out) {
        System.arraycopy(pairs, k * 4, out, 0, 4);
    }

    /** Anomalies of the simple instances of event {@code e}, or null when it has none. */
    public Anomalies simpleAnomalies(int e) {
        return simpleAnomalies[e];
    }

    /** Anomalies of the chained instances of event {@code e}, or null when it has none. */
    public Anomalies chainAnomalies(int e) {
        return chainAnomalies[e];
    }

    /** The step numbers event {@code e} has (sorted), empty when it is not chained. */
    public int[] steps(int e) {
        return stepsOfEvent[e].clone();
    }
}
