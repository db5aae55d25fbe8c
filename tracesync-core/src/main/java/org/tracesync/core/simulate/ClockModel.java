package org.tracesync.core.simulate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A simulated (or measured) clock: at true time t the node reads
 * {@code local(t) = t + alpha + beta·(t − t0) + delta·(t − t0)² + Σ rate_k·(t − at_k)⁺ + Σ step_k·[t ≥ at_k]}
 * (ns), the form of the truth files (../shared/data/pcap/three-hosts/truth.json) extended with
 * {@link ClockEvent}s: rate changes (kinks: NTP corrections, slews, a frequency random walk) and
 * steps (discontinuities), DESIGN §6.
 *
 * <p>Exactness: {@code t − t0}, {@code t − at_k}, {@code alpha} and the steps are exact longs; only
 * the small correction {@code beta·d + delta·d² + Σ rate_k·(t − at_k)} is a double (|d| below days
 * keeps it far under 2^53 ns, so its rounding error is well below 1 ns), rounded to the nearest
 * ns. Never a double on an absolute epoch time. Cost: O(1) without events; with k events
 * O(log k) per reading (prefix sums over the events sorted by time).
 *
 * <p>Fields: {@code name} node name; {@code t0} origin of the drift terms, true time (ns);
 * {@code alpha} offset at t0 (ns); {@code beta} drift (dimensionless: local rate − 1);
 * {@code delta} quadratic term (1/ns); {@code events} rate changes and steps, sorted by time
 * (empty for the plain model). Immutable; a class rather than a record only to keep the events'
 * prefix sums beside them.
 */
public final class ClockModel {

    private final String name;
    private final long t0;
    private final long alpha;
    private final double beta;
    private final double delta;
    private final List<ClockEvent> events;
    private final Timeline timeline;
    private final List<ClockEvent> stepList;
    private volatile ClockModel continuousCache;

    public ClockModel(String name, long t0, long alpha, double beta, double delta, List<ClockEvent> events) {
        if (!(beta > -0.5 && beta < 0.5) || !Double.isFinite(delta)) {
            throw new IllegalArgumentException("clock " + name + ": beta must be in (-0.5, 0.5), delta finite");
        }
        List<ClockEvent> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(ClockEvent::at));
        this.name = name;
        this.t0 = t0;
        this.alpha = alpha;
        this.beta = beta;
        this.delta = delta;
        this.events = List.copyOf(sorted);
        this.timeline = new Timeline(this.events, t0);
        this.stepList = this.events.stream().filter(ClockEvent::isStep).toList();
    }

    public String name() {
        return name;
    }

    public long t0() {
        return t0;
    }

    public long alpha() {
        return alpha;
    }

    public double beta() {
        return beta;
    }

    public double delta() {
        return delta;
    }

    public List<ClockEvent> events() {
        return events;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClockModel c && c.name.equals(name) && c.t0 == t0 && c.alpha == alpha
                && Double.compare(c.beta, beta) == 0 && Double.compare(c.delta, delta) == 0 && c.events.equals(events);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, t0, alpha, beta, delta, events);
    }

    @Override
    public String toString() {
        return "ClockModel[name=" + name + ", t0=" + t0 + ", alpha=" + alpha + ", beta=" + beta + ", delta=" + delta
                + (events.isEmpty() ? "" : ", events=" + events.size()) + "]";
    }

    /** The plain model: offset, drift and a quadratic term, no events. */
    public ClockModel(String name, long t0, long alpha, double beta, double delta) {
        this(name, t0, alpha, beta, delta, List.of());
    }

    /** A perfect clock (reads true time). */
    public static ClockModel perfect(String name, long t0) {
        return new ClockModel(name, t0, 0, 0.0, 0.0);
    }

    /** The same clock with these events added. */
    public ClockModel withEvents(List<ClockEvent> more) {
        List<ClockEvent> all = new ArrayList<>(events);
        all.addAll(more);
        return new ClockModel(name, t0, alpha, beta, delta, all);
    }

    /** True when some event is a step (a local time may then have been read twice). */
    public boolean hasSteps() {
        return !stepList.isEmpty();
    }

    /** The steps among the events, in time order. */
    public List<ClockEvent> steps() {
        return stepList;
    }

    /** Local reading at true time {@code t}, rounded to the nearest ns. */
    public long local(long t) {
        long d = t - t0;
        double dd = d;
        if (events.isEmpty()) {
            return t + alpha + Math.round(beta * dd + delta * dd * dd);
        }
        int k = eventsUpTo(t);
        double kink = rates()[k] * dd - weighted()[k];
        return t + alpha + stepSums()[k] + Math.round(beta * dd + delta * dd * dd + kink);
    }

    /** {@code local(t) − t} in ns, as a double (small). */
    public double offsetAt(long t) {
        double dd = t - t0;
        double base = alpha + beta * dd + delta * dd * dd;
        if (events.isEmpty()) {
            return base;
        }
        int k = eventsUpTo(t);
        return base + stepSums()[k] + rates()[k] * dd - weighted()[k];
    }

    /** Rate of the clock (local ns per true ns) − 1 at true time t, ignoring steps. */
    public double driftAt(long t) {
        double base = beta + 2 * delta * (double) (t - t0);
        return events.isEmpty() ? base : base + rates()[eventsUpTo(t)];
    }

    /** True when the local clock's rate stays positive over true times [from, to] (steps aside). */
    public boolean increasingOver(long from, long to) {
        // the rate is piecewise linear in t with breaks at the events: check the ends and every break
        if (1 + driftAt(from) <= 0 || 1 + driftAt(to) <= 0) {
            return false;
        }
        for (ClockEvent e : events) {
            if (e.at() > from && e.at() < to && (1 + driftAt(e.at()) <= 0 || 1 + driftAt(e.at() - 1) <= 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The true time at which this clock reads {@code local} (nearest ns): exact inverse for a linear
     * clock ({@code d = w / (1 + beta)} with the long {@code w = local − alpha − t0}), Newton
     * iterations from the linear solution for a quadratic one (converges in 2–4 steps for the
     * small delta real clocks have). With events: fixed-point iterations {@code t ← t − (local(t) −
     * local)} (contracting: the rate differs from 1 by far less than 1), then a last exact
     * correction. Inverse of {@link #local} up to its rounding: the result t satisfies
     * |local(t) − local| ≤ 1 for an increasing clock. Around a backward step a local time is read
     * twice: the instant returned is one of the two; in the gap of a forward step no instant reads
     * {@code local}: the step's instant is returned.
     */
    public long trueTime(long local) {
        if (!events.isEmpty()) {
            return trueTimeWithEvents(local);
        }
        long w = local - alpha - t0;
        double wd = w;
        double d = wd / (1 + beta);
        if (delta != 0.0) {
            for (int i = 0; i < 50; i++) {
                double f = d * (1 + beta) + delta * d * d - wd;
                double fp = 1 + beta + 2 * delta * d;
                double step = f / fp;
                d -= step;
                if (Math.abs(step) < 1e-3) {
                    break;
                }
            }
        }
        return t0 + Math.round(d);
    }

    /**
     * Every true instant at which this clock reads {@code local} (nearest ns), ascending: one for a
     * clock without steps ({@link #trueTime}); around a backward step a local time was read twice,
     * before the step and after it, and both instants are returned; in the gap of a forward step
     * none reads it and the step's instant alone is returned (as {@link #trueTime}). Each stretch
     * between two steps is continuous and increasing: its instant is the inverse of the clock
     * without steps at {@code local − (steps before it)}, kept when it falls inside the stretch.
     * O(steps · inverse).
     */
    public long[] trueTimes(long local) {
        List<ClockEvent> steps = steps();
        if (steps.isEmpty()) {
            return new long[] {trueTime(local)};
        }
        ClockModel continuous = withoutSteps();
        long[] found = new long[steps.size() + 1];
        int n = 0;
        long before = 0;
        for (int k = 0; k <= steps.size(); k++) {
            long t = continuous.trueTime(local - before);
            boolean afterPrevious = k == 0 || t >= steps.get(k - 1).at();
            boolean beforeNext = k == steps.size() || t < steps.get(k).at();
            if (afterPrevious && beforeNext && Math.abs(local(t) - local) <= 1) {
                found[n++] = t;
            }
            if (k < steps.size()) {
                before = Math.addExact(before, steps.get(k).step());
            }
        }
        return n == 0 ? new long[] {trueTime(local)} : java.util.Arrays.copyOf(found, n);
    }

    /** This clock with its steps removed (rate changes kept): continuous and increasing. */
    private ClockModel withoutSteps() {
        ClockModel c = continuousCache;
        if (c == null) {
            List<ClockEvent> rates = events.stream().filter(e -> e.rate() != 0.0)
                    .map(e -> ClockEvent.rateChange(e.at(), e.rate())).toList();
            c = new ClockModel(name, t0, alpha, beta, delta, rates);
            continuousCache = c;
        }
        return c;
    }

    /**
     * The true instant of an event at local time {@code local} that its message places: of the
     * instants at which this clock read it ({@link #trueTimes}), for a send ({@code before}) the
     * latest not after {@code other}, its receive's true instant; for a receive the earliest not
     * before {@code other}, its send's. The rule the readers of a result use for the estimate
     * ({@link org.tracesync.core.transform.MessageEnds}), applied to the true clock: a message is
     * forward and far shorter than a step. When no instant qualifies, or the clock read the time
     * once, {@link #trueTime}.
     */
    public long trueTimeOfEnd(long local, long other, boolean before) {
        if (stepList.isEmpty()) {
            return trueTime(local);
        }
        long[] ts = trueTimes(local);
        if (ts.length == 1) {
            return ts[0];
        }
        if (before) {
            for (int i = ts.length - 1; i >= 0; i--) {
                if (ts[i] <= other) {
                    return ts[i];
                }
            }
        } else {
            for (long t : ts) {
                if (t >= other) {
                    return t;
                }
            }
        }
        return trueTime(local);
    }

    private long trueTimeWithEvents(long local) {
        long t = local - alpha;
        for (int i = 0; i < 60; i++) {
            long err = local(t) - local;
            if (err == 0) {
                return t;
            }
            long next = t - Math.round(err / (1 + driftAt(t)));
            if (next == t) {
                return t;
            }
            // a step between t and next: land on the step instant when local falls into its gap
            int kt = eventsUpTo(t);
            int kn = eventsUpTo(next);
            if (kt != kn && i > 20) {
                return next > t ? events.get(kn - 1).at() : events.get(kt - 1).at();
            }
            t = next;
        }
        return t;
    }

    /** Number of events at or before t. O(log k). */
    private int eventsUpTo(long t) {
        return timeline.upTo(t);
    }

    private double[] rates() {
        return timeline.rates;
    }

    private double[] weighted() {
        return timeline.weighted;
    }

    private long[] stepSums() {
        return timeline.steps;
    }

    /**
     * The events sorted by time with their prefix sums (index k = the first k events): summed
     * rate changes, Σ rate·(at − t0) (small terms: no epoch value in a double), summed steps.
     */
    private static final class Timeline {
        final long[] at;
        final double[] rates;
        final double[] weighted;
        final long[] steps;

        Timeline(List<ClockEvent> events, long t0) {
            int k = events.size();
            at = new long[k];
            rates = new double[k + 1];
            weighted = new double[k + 1];
            steps = new long[k + 1];
            for (int i = 0; i < k; i++) {
                ClockEvent e = events.get(i);
                at[i] = e.at();
                rates[i + 1] = rates[i] + e.rate();
                weighted[i + 1] = weighted[i] + e.rate() * (double) (e.at() - t0);
                steps[i + 1] = Math.addExact(steps[i], e.step());
            }
        }

        int upTo(long t) {
            int lo = 0;
            int hi = at.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (at[mid] <= t) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }
}
