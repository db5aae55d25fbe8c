package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClockEvent;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClockWander;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.KeyKind;
import org.tracesync.core.simulate.LatencyModel;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.SimulationSink;
import org.tracesync.core.simulate.Topology;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;

/**
 * The bounds of a PIECEWISE pair at every instant a user can ask about — at messages, between
 * bound rows, exactly at the knots, inside a slew, around a step, and before and after the data —
 * against a general LP solver (ojAlgo), with and without a slew-rate bound
 * ({@link Synchronizer.Options#withMaxSlewRate}).
 *
 * <p>The model the oracle solves is the one the result describes to a user (USER_GUIDE, "What the
 * bounds mean and assume"; RESULT_FORMAT, "Bounds"): the reference-time correction g(t) of node b
 * at its local time t is linear on each of the transform's reported segments, continuous at every
 * knot where the reported transform is continuous, free at a step or a break, and keeps every
 * message forward (a → b received at r: g(r) ≥ s − r; b → a sent at s: g(s) ≤ r − s). Its exact
 * min and max of g(t) must lie inside the reported bounds (strict). Between a step's
 * either-side times the bounds hold both clocks (RESULT_FORMAT): there the oracle's interval is
 * the hull of both segments' lines at t, each read on its side of the step (the clock before it
 * at a reference time up to the step's latest, the clock after it from its earliest). With
 * {@code --max-slew-rate} the docs say the bound only picks the slew's chain ("the bounds around
 * a slew are the envelope of the pieces on both sides whichever chain is taken"): the same claim
 * is checked, the LP knowing nothing of the bound. Every LP optimum behind a miss is checked
 * against every message (not the hulls), so a miss is a concrete clock pair of the model.
 *
 * <p>Before the bound pieces were cut at the transform's knots, every piecewise case here failed:
 * near each knot a bound piece running past it missed the LP's interval by 0.3–35 µs. How tight:
 * a linear pair's bounds are the LP's interval (asserted, the control); a piecewise pair's are
 * 1.1–2.9 times as wide at the median (its bound pieces are at most 32 s, the LP uses whole
 * segments and continuity), up to about 35 times in a slew or a step's zone, where continuity pins
 * the LP's line and the bounds take the envelope of both sides (printed, not asserted: the design
 * promises no more there).
 *
 * <p>Well-conditioned: the LP's variables are g − ĝ (ĝ the reported transform) at the two ends of
 * each segment, a few µs to ms; its coefficients are interpolation weights. Each segment's
 * messages are cut to the two half hulls of their points before the LP (a line above or below a
 * point set is above or below its hull), with a tolerance that keeps near-collinear points.
 */
class PiecewiseBoundsLpOracleTest {

    private static final long START = SimulationConfig.DEFAULT_START;
    private static final long SECOND = 1_000_000_000L;
    private static final double PPM = 1e-6;
    /** Rounding allowed on either side: message times and bound rows are whole ns. */
    private static final double SLACK = 2.0;
    /** Stands for an unbounded variable. */
    private static final double BOX = 1e10;
    /**
     * The LP keeps the messages and knots of the segments within this many of the instant's: a
     * model with fewer constraints, so a wider interval, and bounds that contain it contain the
     * whole model's (sound); the far segments rarely matter and cost most of the time.
     */
    private static final int WINDOW = 2;

    /** How b's clock bends: not at all (a linear control), NTP-like kinks, kinks and a slew, kinks and a step. */
    enum Bend { LINEAR, KINKS, SLEW, STEP, NTP50 }

    /** A case: b's clock, its seed, messages per second each way, the slew-rate bound of the fit. */
    record Case(Bend bend, long seed, double rate, double maxSlewRate) {
        @Override
        public String toString() {
            return bend + " seed " + seed + " at " + rate + " msg/s"
                    + (Double.isInfinite(maxSlewRate) ? "" : String.format(" with --max-slew-rate %.0f", maxSlewRate / PPM));
        }
    }

    static Stream<Arguments> cases() {
        double none = PiecewiseEstimator.NO_SLEW_RATE_BOUND;
        return Stream.of(
                new Case(Bend.LINEAR, 1, 10, none),
                new Case(Bend.KINKS, 1, 10, none),
                new Case(Bend.KINKS, 2, 10, 500 * PPM),
                // at 4 messages/s the bound picks another slew chain on this seed (asserted below)
                new Case(Bend.SLEW, 3, 4, none),
                new Case(Bend.SLEW, 3, 4, 500 * PPM),
                // simulate --ntp 50 --slews 2 --rate 2 --duration 2h --seed 2: two knots 4 s apart (a
                // steep piece between them), the second in no bucket of the bound piece before it
                new Case(Bend.NTP50, 2, 2, 500 * PPM),
                new Case(Bend.STEP, 1, 10, none),
                new Case(Bend.STEP, 2, 10, 500 * PPM),
                // a 2.36 ms step at 4 messages/s, once one steep piece (PiecewiseStepAsSteepPieceTest)
                new Case(Bend.STEP, 6, 4, none),
                new Case(Bend.STEP, 29, 4, 500 * PPM)).map(Arguments::of);
    }

    /** A message: sender, receiver, local send time, local receive time. */
    record Msg(int sender, int receiver, long send, long recv) {
    }

    /** b's clock: a random offset and drift, bending as the case says. */
    static ClockModel clockB(Bend bend, SplittableRandom r, long duration) {
        long alpha = r.nextLong(-2_000_000L, 2_000_000L);
        double beta = r.nextDouble(-40 * PPM, 40 * PPM);
        List<ClockEvent> events = new ArrayList<>();
        // NTP-like rate corrections of 2–6 ppm, so the hulls cross
        int kinks = bend == Bend.LINEAR ? 0 : 2 + r.nextInt(2);
        for (int k = 1; k <= kinks; k++) {
            long at = START + duration * k / (kinks + 1) + r.nextLong(-20 * SECOND, 20 * SECOND);
            events.add(ClockEvent.rateChange(at, (r.nextBoolean() ? 1 : -1) * r.nextDouble(2 * PPM, 6 * PPM)));
        }
        long mid = START + duration / 2 + r.nextLong(-30 * SECOND, 30 * SECOND);
        if (bend == Bend.SLEW) {
            // ntpd's slew: 500 ppm for 0.5–3 s, then the rate before
            long length = r.nextLong(500_000_000L, 3 * SECOND);
            double rate = (r.nextBoolean() ? 1 : -1) * 500 * PPM;
            events.add(ClockEvent.rateChange(mid, rate));
            events.add(ClockEvent.rateChange(mid + length, -rate));
        } else if (bend == Bend.STEP) {
            events.add(ClockEvent.step(mid, (r.nextBoolean() ? 1 : -1) * r.nextLong(2_000_000L, 5_000_000L)));
        }
        events.sort(java.util.Comparator.comparingLong(ClockEvent::at));
        return new ClockModel("b", START, alpha, beta, 0.0, events);
    }

    /** Messages both ways, {@code rate} per second each way, 30–60 µs minimum latency, exponential tail. */
    static List<Msg> messages(ClockModel b, SplittableRandom r, long duration, double rate) {
        long minAB = r.nextLong(30_000, 60_000);
        long minBA = r.nextLong(30_000, 60_000);
        List<Msg> out = new ArrayList<>();
        for (int dir = 0; dir < 2; dir++) {
            long t = START + r.nextLong(1_000_000L);
            while (t < START + duration) {
                long latency = (dir == 0 ? minAB : minBA) + Math.round(-40_000 * Math.log(1 - r.nextDouble()));
                if (dir == 0) {
                    out.add(new Msg(0, 1, t, b.local(t + latency)));
                } else {
                    out.add(new Msg(1, 0, b.local(t), t + latency));
                }
                t += Math.round(-1e9 / rate * Math.log(1 - r.nextDouble())) + 1;
            }
        }
        out.sort(java.util.Comparator.comparingLong(m -> Math.min(m.send(), m.recv())));
        return out;
    }

    /** Two clocks and the messages between them (local times). */
    record Trace(ClockModel a, ClockModel b, List<Msg> msgs) {
    }

    /** 10 minutes: a reads true time, b bends as the case says ({@link #clockB}). */
    static Trace generated(Case c, SplittableRandom r) {
        long duration = 10 * 60 * SECOND;
        ClockModel b = clockB(c.bend(), r, duration);
        return new Trace(ClockModel.perfect("a", START), b, messages(b, r, duration, c.rate()));
    }

    /**
     * {@code simulate --nodes 2 --ntp 50 --slews 2 --rate RATE --duration 2h --seed SEED}'s clocks and
     * messages (both clocks wander: NTP-like rate corrections of up to 50 ppm every 1024 s, two
     * 500 ppm slews each; 60 / 80 µs minimum latencies, 100 µs exponential tail).
     */
    static Trace simulated(Case c) {
        long duration = 2 * 3_600 * SECOND;
        LatencyModel latency = new LatencyModel(60_000, 80_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, c.seed(),
                1_000_000_000L, 50e-6, 0.0);
        clocks = ClockWander.NONE.withNtp(1_024_000_000_000L, 50e-6).withSlews(2, 500e-6).withSteps(0, 5_000_000L)
                .apply(clocks, c.seed(), START, duration);
        SimulationConfig config = new SimulationConfig(c.seed(), clocks, Topology.MESH.links(2, latency), START, duration,
                c.rate(), false, 0, 0.0, KeyKind.MESSAGE_ID);
        List<Msg> msgs = new ArrayList<>();
        new ClusterSimulator(config).run(new SimulationSink() {
            @Override
            public void message(int sender, int receiver, long sendTime, long recvTime) {
                msgs.add(new Msg(sender, receiver, sendTime, recvTime));
            }
        });
        return new Trace(clocks.get(0), clocks.get(1), msgs);
    }

    static SyncResult sync(List<Msg> msgs, double maxSlewRate) throws Exception {
        MessageInput input = new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return List.of(new NodeInfo("a", "sim"), new NodeInfo("b", "sim"));
            }

            @Override
            public void readMessages(MessageSink sink) {
                for (Msg m : msgs) {
                    sink.message(m.sender(), m.receiver(), m.send(), m.recv());
                }
            }
        };
        return Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("a").withMaxSlewRate(maxSlewRate))
                .result();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void piecewiseBoundsContainTheLpIntervalAtEveryInstant(Case c) throws Exception {
        SplittableRandom r = new SplittableRandom(c.seed() * 31 + c.bend().ordinal() - 1);
        Trace trace = c.bend() == Bend.NTP50 ? simulated(c) : generated(c, r);
        ClockModel a = trace.a();
        ClockModel b = trace.b();
        List<Msg> msgs = trace.msgs();
        SyncResult result = sync(msgs, c.maxSlewRate());
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).as(pair.note()).isEqualTo(c.bend() == Bend.LINEAR ? Quality.ACCURATE : Quality.PIECEWISE);
        if (c.bend() != Bend.NTP50) {
            assertThat(pair.steps()).as(pair.note()).hasSize(c.bend() == Bend.STEP ? 1 : 0);
        }
        NodeResult node = result.nodes().get(1);
        assertThat(node.name()).isEqualTo("b");
        if (c.bend() == Bend.SLEW && c.seed() == 3 && !Double.isInfinite(c.maxSlewRate())) {
            // the bound changes which chain the transform takes here, not what the bounds claim
            SyncResult unbounded = sync(msgs, PiecewiseEstimator.NO_SLEW_RATE_BOUND);
            assertThat(node.transform()).isNotEqualTo(unbounded.nodes().get(1).transform());
        }
        Oracle oracle = new Oracle(node, msgs);
        oracle.truth = b;
        oracle.truthA = a;
        oracle.steps = pair.steps();
        Stats stats = new Stats();
        for (long[] inst : oracle.instants(r)) {
            oracle.check(inst[0], (int) inst[1], c, stats);
        }
        System.out.printf("%s: %d segments (%d continuous knots, %d steps), %d rows; %s%n", c,
                oracle.segs.size(), oracle.continuousKnots(), pair.steps().size(), node.bounds().size(), stats);
        assertThat(stats.outside).as("instants where the bounds do not contain the LP interval").isEmpty();
        assertThat(stats.truthOutside).as("instants where the bounds do not contain the simulated truth").isEmpty();
        assertThat(stats.checked).isGreaterThan(50);
        assertThat(stats.kinds[Kind.MESSAGE.ordinal()]).isPositive();
        assertThat(stats.kinds[Kind.BETWEEN_ROWS.ordinal()]).isPositive();
        assertThat(stats.kinds[Kind.BEYOND.ordinal()]).isPositive();
        if (c.bend() != Bend.LINEAR) {
            assertThat(stats.kinds[Kind.KNOT.ordinal()]).isPositive();
        }
        if (c.bend() == Bend.SLEW) {
            assertThat(stats.kinds[Kind.SLEW.ordinal()]).isPositive();
        }
        if (c.bend() == Bend.STEP) {
            assertThat(stats.kinds[Kind.STEP.ordinal()]).isPositive();
        }
        if (c.bend() == Bend.LINEAR) {
            // one line over the trace: the bounds are Poirier's envelope, exactly the LP's interval
            assertThat(stats.loose).as("instants where a linear pair's bounds are wider than the LP's").isEmpty();
        }
    }

    enum Kind { MESSAGE, BETWEEN_ROWS, KNOT, SLEW, STEP, BEYOND }

    static final class Stats {
        int checked;
        final int[] kinds = new int[Kind.values().length];
        final List<Double> excess = new ArrayList<>(); // bound width / LP width, inside the data
        final List<String> outside = new ArrayList<>(); // instants where the bounds do not contain the LP interval
        final List<String> truthOutside = new ArrayList<>(); // instants where the bounds do not contain the truth
        final List<String> loose = new ArrayList<>(); // instants where the bounds are wider than the LP's by > TIGHT

        @Override
        public String toString() {
            double[] e = excess.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            String width = e.length == 0 ? "" : String.format(", bound width / LP width: median %.2f, 90%% %.2f, max %.2f",
                    e[e.length / 2], e[(int) (e.length * 0.9)], e[e.length - 1]);
            return checked + " instants " + Arrays.toString(kinds) + width + ", " + outside.size()
                    + " outside, truth outside at " + truthOutside.size();
        }
    }

    /** The LP of the documented model over node b's reported transform. */
    static final class Oracle {
        final NodeResult node;
        final List<LinearSegment> segs;
        final boolean[] continuousAfter; // knot between segment k and k + 1 continuous
        final long[] lo;
        final long[] hi;
        // per segment: points (t, w) of the constraints g(t) ≥ w (below) and g(t) ≤ w (above), in z = g − ĝ
        final List<List<double[]>> below = new ArrayList<>();
        final List<List<double[]>> above = new ArrayList<>();
        final long firstMessage;
        final long lastMessage;
        final List<Msg> msgs;
        List<ClockStep> steps = List.of();
        ClockModel truth;
        ClockModel truthA;
        int witnesses;
        Optimisation.Result last; // the last LP's solution
        final List<Optimisation.Result> solutions = new ArrayList<>(); // the current instant's
        final java.util.Map<Optimisation.Result, int[]> windows = new java.util.IdentityHashMap<>(); // their segments

        Oracle(NodeResult node, List<Msg> msgs) {
            this.node = node;
            this.msgs = msgs;
            this.segs = node.transform().segments();
            int n = segs.size();
            continuousAfter = new boolean[n];
            for (int k = 0; k + 1 < n; k++) {
                long knot = segs.get(k + 1).from();
                assertThat(segs.get(k).to()).isEqualTo(knot);
                continuousAfter[k] = Math.abs(segs.get(k + 1).correction(knot) - segs.get(k).correction(knot)) < 1.0;
            }
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (Msg m : msgs) {
                long t = m.sender() == 1 ? m.send() : m.recv();
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
            firstMessage = first;
            lastMessage = last;
            NodeBounds bounds = node.bounds();
            long rowsFirst = bounds.rowT(0);
            long rowsLast = bounds.rowT(bounds.size() - 1);
            lo = new long[n];
            hi = new long[n];
            for (int k = 0; k < n; k++) {
                LinearSegment s = segs.get(k);
                lo[k] = s.from() != null ? s.from() : Math.min(first, rowsFirst) - 600 * SECOND;
                hi[k] = s.to() != null ? s.to() : Math.max(last, rowsLast) + 600 * SECOND;
                below.add(new ArrayList<>());
                above.add(new ArrayList<>());
            }
            for (Msg m : msgs) {
                long t = m.sender() == 1 ? m.send() : m.recv();
                int k = segmentOf(m, t);
                double w = m.sender() == 1 ? m.recv() - m.send() : m.send() - m.recv();
                w -= segs.get(k).correction(t);
                (m.sender() == 1 ? above : below).get(k).add(new double[] {t - lo[k], w});
            }
            for (int k = 0; k < n; k++) {
                below.set(k, hull(below.get(k), true));
                above.set(k, hull(above.get(k), false));
            }
        }

        /**
         * The segment whose clock read b's end at local time t: the transform's cut, except in a
         * step's either-side range, where the end takes the reading that keeps its message
         * forward when only the other segment's does (the reading eval gives it).
         */
        int segmentOf(Msg m, long t) {
            int k = node.transform().indexAt(t);
            int[] others = {k - 1, k + 1};
            for (int o : others) {
                if (o < 0 || o >= segs.size()) {
                    continue;
                }
                LinearSegment after = segs.get(Math.max(k, o));
                if (after.eitherFrom() == null || t < after.eitherFrom() || t >= after.eitherTo()) {
                    continue;
                }
                if (!forward(m, t, segs.get(k)) && forward(m, t, segs.get(o))) {
                    return o;
                }
            }
            return k;
        }

        static boolean forward(Msg m, long t, LinearSegment s) {
            double c = s.correction(t);
            return m.sender() == 1 ? (t - m.recv()) + c <= 0 : (t - m.send()) + c >= 0;
        }

        int continuousKnots() {
            int n = 0;
            for (boolean c : continuousAfter) {
                n += c ? 1 : 0;
            }
            return n;
        }

        /**
         * The points a line must stay above ({@code upperHull}: their upper hull) or below (their
         * lower hull). Keeps a point unless it lies clearly (1e-6 ns) inside the chord of its
         * neighbours.
         */
        static List<double[]> hull(List<double[]> pts, boolean upperHull) {
            pts.sort((x, y) -> Double.compare(x[0], y[0]));
            List<double[]> h = new ArrayList<>();
            for (double[] p : pts) {
                while (h.size() >= 2) {
                    double[] p1 = h.get(h.size() - 2);
                    double[] p2 = h.get(h.size() - 1);
                    double chord = p1[0] == p[0] ? Math.max(p1[1], p[1])
                            : p1[1] + (p[1] - p1[1]) * ((p2[0] - p1[0]) / (p[0] - p1[0]));
                    boolean inside = upperHull ? p2[1] < chord - 1e-6 : p2[1] > chord + 1e-6;
                    if (!inside) {
                        break;
                    }
                    h.remove(h.size() - 1);
                }
                h.add(p);
            }
            return h;
        }

        /** Instants to check, each with its kind: {t, kind}. */
        List<long[]> instants(SplittableRandom r) {
            List<long[]> out = new ArrayList<>();
            TreeSet<Long> seen = new TreeSet<>();
            java.util.function.BiConsumer<Long, Kind> add = (t, kind) -> {
                if (seen.add(t)) {
                    out.add(new long[] {t, kind.ordinal()});
                }
            };
            // at message ends on b
            for (int i = 0; i < 15; i++) {
                Msg m = msgs.get(r.nextInt(msgs.size()));
                add.accept(m.sender() == 1 ? m.send() : m.recv(), Kind.MESSAGE);
            }
            // between rows: the middle of random row intervals, and random points inside them
            NodeBounds bounds = node.bounds();
            for (int i = 0; i < 15; i++) {
                int j = r.nextInt(bounds.size() - 1);
                long t0 = bounds.rowT(j);
                long t1 = bounds.rowT(j + 1);
                if (t1 - t0 > 1) {
                    add.accept(t0 + (t1 - t0) / 2, Kind.BETWEEN_ROWS);
                    add.accept(t0 + 1 + r.nextLong(t1 - t0 - 1), Kind.BETWEEN_ROWS);
                }
            }
            // exactly at knots, one ns before, and around them
            for (int k = 1; k < segs.size(); k++) {
                long knot = segs.get(k).from();
                for (long d : new long[] {0, -1, SECOND / 10}) {
                    add.accept(knot + d, Kind.KNOT);
                }
                LinearSegment s = segs.get(k);
                if (s.to() != null && s.to() - s.from() < 10 * SECOND && continuousAfter[k - 1] && continuousAfter[k]) {
                    // a short segment between continuous knots: a slew's line
                    for (int q = 1; q < 8; q++) {
                        add.accept(s.from() + (s.to() - s.from()) * q / 8, Kind.SLEW);
                    }
                }
                if (s.eitherFrom() != null) {
                    long ef = s.eitherFrom();
                    long et = s.eitherTo();
                    for (long t : new long[] {ef - 1, ef, ef + (et - ef) / 3, ef + (et - ef) / 2, et - 1, et}) {
                        add.accept(t, Kind.STEP);
                    }
                }
            }
            // before and after the data and the rows
            long rowsFirst = bounds.rowT(0);
            long rowsLast = bounds.rowT(bounds.size() - 1);
            for (long d : new long[] {1, SECOND, 60 * SECOND, 300 * SECOND}) {
                add.accept(firstMessage - d, Kind.BEYOND);
                add.accept(lastMessage + d, Kind.BEYOND);
                add.accept(rowsFirst - d, Kind.BEYOND);
                add.accept(rowsLast + d, Kind.BEYOND);
            }
            return out;
        }

        void check(long t, int kindIndex, Case c, Stats stats) {
            Kind kind = Kind.values()[kindIndex];
            solutions.clear();
            windows.clear();
            int k = node.transform().indexAt(t);
            double here = segs.get(k).correction(t);
            // the LP interval of g(t) − ĝ(t): this segment's line; within a step's either-side
            // range, each side's line that may have read t: the clock before the step before
            // the step's latest time, the clock after it after its earliest (RESULT_FORMAT)
            double[] range = extremes(k, t, here, 0, 0);
            int after = -1;
            for (int s = Math.max(1, k); s <= Math.min(k + 1, segs.size() - 1); s++) {
                LinearSegment seg = segs.get(s);
                if (seg.eitherFrom() != null && t >= seg.eitherFrom() && t < seg.eitherTo()) {
                    after = s;
                }
            }
            if (after > 0) {
                ClockStep step = stepAt(after);
                double[] before = extremes(after - 1, t, here, 1, step.latest());
                double[] later = extremes(after, t, here, -1, step.earliest());
                assertThat(before != null || later != null).as("%s: neither side of the step reads %d", c, t).isTrue();
                range = before == null ? later : later == null ? before
                        : new double[] {Math.min(before[0], later[0]), Math.max(before[1], later[1])};
            }
            double minus = node.bounds().minus(t);
            double plus = node.bounds().plus(t);
            String where = String.format("%s: %s at b-local %d (segment %d of %d, %+.1f s from its start): LP [%.1f, %.1f],"
                    + " bounds [%.1f, %.1f]", c, kind, t, k, segs.size(), (t - lo[k]) / 1e9, range[0], range[1], -minus, plus);
            double out = Math.max(-minus - range[0], range[1] - plus);
            if (truth != null) {
                // the simulated clocks' own correction at t (a reads true time): inside the bounds?
                double g = (truthA.local(truth.trueTime(t)) - t) - here;
                double outTruth = Math.max(-minus - g, g - plus);
                if (outTruth > SLACK) {
                    stats.truthOutside.add(String.format("%s; truth %.1f, %.1f ns outside", where, g, outTruth));
                }
            }
            if (out > SLACK) {
                long knot = Long.MAX_VALUE;
                for (int j = 1; j < segs.size(); j++) {
                    long d = t - segs.get(j).from();
                    knot = Math.abs(d) < Math.abs(knot) ? d : knot;
                }
                solutions.forEach(this::witness);
                stats.outside.add(String.format("%s; %.1f ns outside, %+.2f s from the nearest knot", where, out, knot / 1e9));
            }
            stats.checked++;
            stats.kinds[kindIndex]++;
            if (kind != Kind.BEYOND && range[1] - range[0] > 1) {
                stats.excess.add((plus + minus) / (range[1] - range[0]));
            }
            if (Math.max(range[0] + minus, plus - range[1]) > SLACK + 1e-9 * Math.abs(range[1] - range[0])) {
                stats.loose.add(where);
            }
        }

        /**
         * Min and max over the model of g(t) with g on segment k's line, minus {@code here}; with
         * {@code side} ±1 also t + g(t) ≤ {@code limit} (+1) or ≥ it (−1): null when the model
         * then has no clock.
         */
        double[] extremes(int k, long t, double here, int side, long limit) {
            double shift = segs.get(k).correction(t) - here;
            double min = solve(k, t, false, side, limit);
            Optimisation.Result argMin = last;
            if (Double.isNaN(min)) {
                return null;
            }
            double max = solve(k, t, true, side, limit);
            solutions.add(argMin);
            solutions.add(last);
            return new double[] {min + shift, max + shift};
        }

        /** The step whose either-side range segment {@code after} carries. */
        ClockStep stepAt(int after) {
            long knot = segs.get(after).from();
            long onA = knot + Math.round(segs.get(after).correction(knot));
            ClockStep best = null;
            for (ClockStep st : steps) {
                if (best == null || Math.abs(st.at() - onA) < Math.abs(best.at() - onA)) {
                    best = st;
                }
            }
            assertThat(best).as("a step for segment %d", after).isNotNull();
            return best;
        }

        double solve(int target, long t, boolean max, int side, long limit) {
            ExpressionsBasedModel model = new ExpressionsBasedModel();
            int n = segs.size();
            Variable[] ylo = new Variable[n];
            Variable[] yhi = new Variable[n];
            for (int k = 0; k < n; k++) {
                ylo[k] = model.addVariable("lo" + k).lower(-BOX).upper(BOX);
                yhi[k] = model.addVariable("hi" + k).lower(-BOX).upper(BOX);
            }
            int e = 0;
            int from = Math.max(0, target - WINDOW);
            int to = Math.min(n - 1, target + WINDOW);
            for (int k = from; k <= to; k++) {
                for (double[] p : below.get(k)) {
                    Expression x = model.addExpression("e" + e++).lower(p[1]);
                    weights(x, ylo[k], yhi[k], k, p[0]);
                }
                for (double[] p : above.get(k)) {
                    Expression x = model.addExpression("e" + e++).upper(p[1]);
                    weights(x, ylo[k], yhi[k], k, p[0]);
                }
                if (k + 1 <= to && continuousAfter[k]) {
                    // g_k(knot) = g_{k+1}(knot): z_k(knot) − z_{k+1}(knot) = ĝ_{k+1}(knot) − ĝ_k(knot)
                    long knot = segs.get(k + 1).from();
                    double jump = segs.get(k + 1).correction(knot) - segs.get(k).correction(knot);
                    Expression x = model.addExpression("c" + k).level(jump);
                    x.set(yhi[k], 1);
                    x.set(ylo[k + 1], -1);
                }
            }
            if (side != 0) {
                // the reading's side of the step: z(t) ≤ (or ≥) limit − t − ĝ(t)
                double bound = (limit - t) - segs.get(target).correction(t);
                Expression x = model.addExpression("side");
                x = side > 0 ? x.upper(bound) : x.lower(bound);
                weights(x, ylo[target], yhi[target], target, t - lo[target]);
            }
            Expression obj = model.addExpression("objective").weight(1);
            weights(obj, ylo[target], yhi[target], target, t - lo[target]);
            Optimisation.Result res = max ? model.maximise() : model.minimise();
            if (side != 0 && !res.getState().isFeasible()) {
                return Double.NaN;
            }
            assertThat(res.getState().isOptimal()).as("oracle LP state %s (segment %d at %d)", res.getState(), target, t)
                    .isTrue();
            double v = res.getValue();
            if (Math.abs(v) > BOX / 10) {
                return max ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            }
            last = res;
            windows.put(res, new int[] {from, to});
            return v;
        }

        /**
         * The LP's optimal g, checked against the model without the hull reduction: every message
         * forward (1e-3 ns for the solver's rounding), continuous at the continuous knots. So an
         * interval the bounds miss is a concrete clock pair of the model.
         */
        void witness(Optimisation.Result res) {
            int n = segs.size();
            int[] window = windows.get(res);
            double[] ylo = new double[n];
            double[] yhi = new double[n];
            for (int k = 0; k < n; k++) {
                ylo[k] = res.doubleValue(2 * k);
                yhi[k] = res.doubleValue(2 * k + 1);
            }
            for (Msg m : msgs) {
                long t = m.sender() == 1 ? m.send() : m.recv();
                int k = segmentOf(m, t);
                if (k < window[0] || k > window[1]) {
                    continue;
                }
                double lambda = (t - lo[k]) / (double) (hi[k] - lo[k]);
                double g = segs.get(k).correction(t) + (1 - lambda) * ylo[k] + lambda * yhi[k];
                double late = m.sender() == 1 ? (t - m.recv()) + g : (m.send() - t) - g;
                assertThat(late).as("the LP's clock inverts %s by %.4f ns", m, late).isLessThanOrEqualTo(1e-3);
            }
            for (int k = window[0]; k + 1 <= window[1]; k++) {
                if (continuousAfter[k]) {
                    long knot = segs.get(k + 1).from();
                    double left = segs.get(k).correction(knot) + yhi[k];
                    double right = segs.get(k + 1).correction(knot) + ylo[k + 1];
                    assertThat(Math.abs(left - right)).as("the LP's clock at knot %d", knot).isLessThan(1e-3);
                }
            }
            witnesses++;
        }

        /** z_k at {@code sinceLo} ns after lo_k: (1 − λ)·z(lo_k) + λ·z(hi_k), λ = sinceLo / (hi_k − lo_k). */
        void weights(Expression x, Variable ylo, Variable yhi, int k, double sinceLo) {
            double lambda = sinceLo / (double) (hi[k] - lo[k]);
            x.set(ylo, 1 - lambda);
            x.set(yhi, lambda);
        }
    }
}
