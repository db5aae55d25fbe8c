package org.tracesync.formats.spans;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MessageEnds;
import org.tracesync.core.transform.ReadingsInOrder;

/**
 * How one host's timestamps change when its span files are corrected: the host's transform onto its
 * reference, its bounds and quality (from the result file), or nothing for a host the result does not
 * know. O(segments) per timestamp, O(log rows) per bound lookup.
 *
 * <p>Around a clock step of the host (a local time with two readings, {@link ClockTransform#stepAround})
 * a span's timestamps are placed by their position ({@link #span}): a start or end that is one end of
 * a constraint with another host (a client's start and a server's, a server's end and its client's)
 * takes the reading that keeps that constraint forward, as the fit and {@code eval} place it
 * ({@link MessageEnds}, from {@code placed}: local time → segment index, found by {@link #forResult});
 * the span's other timestamps follow in the span's order (start, events, end) and keep its side of
 * the step ({@link ReadingsInOrder}): once the span is past the step, so is the rest of it.
 *
 * @param placed local time → segment of the host's events around a step placed by their constraint
 *               (empty when none)
 */
public record SpanCorrection(NodeResult node, Map<Long, Integer> placed) {

    /** A host without placed events (or an unknown one: {@code node} null). */
    public SpanCorrection(NodeResult node) {
        this(node, Map.of());
    }

    /** The corrected time (ns) of local time {@code t} (ns), by its local time alone; unchanged for an unknown host. */
    public long apply(long t) {
        return node == null ? t : node.transform().apply(t);
    }

    /**
     * The corrected times of one span's timestamps, to be fed in the span's order (start, its
     * events by time, end): the same as {@link #apply} away from clock steps.
     */
    public Span span() {
        return new Span();
    }

    /** One span's timestamps in order (stateful, one per span). */
    public final class Span {
        private final ReadingsInOrder readings =
                node != null && node.transform().hasTwoReadings() ? new ReadingsInOrder(node.transform()) : null;
        private boolean first = true;

        private Span() {
        }

        /** The corrected time (ns) of the span's next timestamp {@code t} (ns). */
        public long next(long t) {
            if (readings == null) {
                return apply(t);
            }
            Integer k = placed.get(t);
            boolean start = first;
            first = false;
            if (k != null) {
                return readings.placed(t, k);
            }
            // the first timestamp without a constraint: its local time's segment, as before
            return start ? readings.placed(t, node.transform().indexAt(t)) : readings.applyAsLong(t);
        }
    }

    /** {minus, plus} (ns) at {@code t} (+∞ on an unbounded side), or null when the host has no bounds. */
    public double[] bounds(long t) {
        if (node == null || node.bounds().isEmpty()) {
            return null;
        }
        return node.bounds().at(t);
    }

    public String quality() {
        return node == null ? "unknown" : node.quality().label();
    }

    /** The reference the corrected times are on. */
    public String reference() {
        return node == null ? "" : node.reference();
    }

    /**
     * Host name → its correction under {@code result}. When a host's transform has local times with
     * two readings (a clock step), the span {@code files} are read once more (their constraints) to
     * place that host's constrained events around its steps; otherwise nothing is read. Memory:
     * the pending tables of one constraint pass, and the events around steps.
     */
    public static Function<String, SpanCorrection> forResult(SyncResult result, SpanFiles files) throws IOException {
        Map<String, NodeResult> byName = new HashMap<>();
        boolean steps = false;
        for (NodeResult n : result.nodes()) {
            byName.put(n.name(), n);
            steps |= n.synchronizedToOther() && n.transform().hasTwoReadings();
        }
        if (!steps) {
            return host -> new SpanCorrection(byName.get(host));
        }
        // one pass: hosts are named as they come (the constraints name them by this pass's indices)
        SpanHosts hosts = new SpanHosts();
        List<NodeResult> nodes = new ArrayList<>();
        List<Map<Long, Integer>> placed = new ArrayList<>();
        SpanConstraints constraints = new SpanConstraints(files.options().pendingCapacity(),
                (kind, from, to, fromTime, toTime, resolution, hi, lo) -> {
                    while (nodes.size() < hosts.size()) {
                        nodes.add(byName.get(hosts.name(nodes.size())));
                        placed.add(new HashMap<>());
                    }
                    NodeResult f = nodes.get(from);
                    NodeResult r = nodes.get(to);
                    if (f == null || r == null || !f.reference().equals(r.reference())) {
                        return;
                    }
                    ClockTransform fs = f.transform();
                    ClockTransform rs = r.transform();
                    if (fs.stepAround(fromTime) >= 0) {
                        place(placed.get(from), fs, fromTime, MessageEnds.sendSegment(fs, fromTime, toTime, rs.correction(toTime)),
                                true);
                    }
                    if (rs.stepAround(toTime) >= 0) {
                        place(placed.get(to), rs, toTime, MessageEnds.receiveSegment(rs, toTime, fromTime, fs.correction(fromTime)),
                                false);
                    }
                });
        files.read(hosts, constraints);
        constraints.finish();
        Map<String, SpanCorrection> out = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i) != null && !placed.get(i).isEmpty()) {
                out.put(hosts.name(i), new SpanCorrection(nodes.get(i), Map.copyOf(placed.get(i))));
            }
        }
        return host -> out.getOrDefault(host, new SpanCorrection(byName.get(host)));
    }

    /**
     * Records event t's segment; an event that ends several constraints (a client calling several
     * servers) keeps the reading that keeps them all forward: a send the earlier, a receive the later.
     */
    private static void place(Map<Long, Integer> placed, ClockTransform transform, long t, int segment, boolean send) {
        placed.merge(t, segment, (old, now) -> {
            double a = transform.segments().get(old).correction(t);
            double b = transform.segments().get(now).correction(t);
            return send == (a <= b) ? old : now;
        });
    }
}
