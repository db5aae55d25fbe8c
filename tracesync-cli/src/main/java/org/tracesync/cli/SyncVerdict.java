package org.tracesync.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;

/**
 * The exit code of {@code sync} and the lines on stderr that explain a non-zero one
 * (docs/USER_GUIDE.md, "Exit codes"). 0 only when every node has an estimate that no message
 * contradicts, on one reference clock: otherwise {@link ExitCode#SYNC_INCOMPLETE}, with one line
 * per reason — a single node, nodes that could not be synchronized (absent, invalid, one-way left unplaced),
 * nodes synchronized only by a fallback line (messages contradict it), messages left inverted by a
 * piecewise fit (around clock steps with {@code --repair never}, counted by the repair's detection
 * pass; buckets holding a clock step when neither ran; or messages the repair could not move),
 * separate groups. Loops, not streams or lambdas, where every {@code sync}
 * passes: the first use of a stream or a lambda costs milliseconds at start (docs/PERFORMANCE.md, "Start").
 */
public record SyncVerdict(int exitCode, List<String> reasons) {

    /**
     * @param unresolvedBuckets buckets of piecewise fits that hold a clock step and fit no line: they
     *                          may leave messages inverted unless the repair pass ran
     */
    public static SyncVerdict of(SyncResult r, long unresolvedBuckets) {
        List<NodeResult> nodes = r.nodes();
        List<String> reasons = new ArrayList<>();
        if (nodes.size() == 1) {
            reasons.add("only one node (" + nodes.get(0).name() + "): nothing to synchronize it with");
            return new SyncVerdict(ExitCode.SYNC_INCOMPLETE, reasons);
        }
        List<String> unsynchronized = new ArrayList<>();
        List<String> contradicted = new ArrayList<>();
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (NodeResult n : nodes) {
            boolean groupReference = isGroupReference(r, n);
            if (!n.synchronizedToOther() && !groupReference) {
                unsynchronized.add(n.name() + " (" + (n.note().isEmpty() ? n.quality().label() : n.note()) + ")");
                continue;
            }
            List<String> group = groups.get(n.reference());
            if (group == null) {
                group = new ArrayList<>();
                groups.put(n.reference(), group);
            }
            group.add(n.name());
            if (n.quality() == Quality.FALLBACK) {
                contradicted.add(n.name());
            }
        }
        if (!unsynchronized.isEmpty()) {
            reasons.add(unsynchronized.size() + " of " + nodes.size() + " nodes could not be synchronized: "
                    + String.join("; ", unsynchronized));
        }
        if (!contradicted.isEmpty()) {
            reasons.add(contradicted.size() + " of " + nodes.size() + " nodes synchronized only by a line that"
                    + " messages contradict (fallback): " + String.join(", ", contradicted));
        }
        if (r.stats().get("repair_inversions_after") instanceof Number left) {
            if (left.longValue() > 0) {
                reasons.add(left + " messages still inverted after the repair pass (see the warnings)");
            }
        } else if (r.stats().get("inversions_after_fit") instanceof Number left) {
            if (left.longValue() > 0) {
                reasons.add(left + " messages inverted after the fit, left so by --repair never;"
                        + " --repair auto or always moves them");
            }
        } else if (unresolvedBuckets > 0) {
            reasons.add(unresolvedBuckets + " buckets holding a clock step fit no line and may leave messages"
                    + " inverted; --repair auto or always moves them (eval counts them)");
        }
        if (groups.size() > 1) {
            List<String> shown = groups.entrySet().stream()
                    .map(e -> e.getKey() + " (" + e.getValue().size() + " nodes)").toList();
            reasons.add("the nodes form " + groups.size() + " groups with no messages between them, each on its own"
                    + " reference: " + String.join(", ", shown));
        }
        return new SyncVerdict(reasons.isEmpty() ? ExitCode.OK : ExitCode.SYNC_INCOMPLETE, reasons);
    }

    /** A node that is the reference of a group of at least two nodes. */
    private static boolean isGroupReference(SyncResult r, NodeResult n) {
        for (NodeResult o : r.nodes()) {
            if (o != n && o.reference().equals(n.name())) {
                return true;
            }
        }
        return false;
    }
}
