package org.tracesync.core.reduce;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything synchronization produced (DESIGN §7): the outputs (result file, report, evaluation,
 * rewritten traces) read only this.
 *
 * @param reference the reference of the first (largest) connected group
 * @param nodes     one entry per input node, in input order
 * @param pairs     one entry per pair that has at least one message
 * @param stats     free-form statistics (numbers and strings) for the "stats" object
 * @param warnings  human-readable warnings (fallback pairs, unsynchronized nodes, ...)
 * @param repairs   events moved by the controlled logical clock, by node name: {local time,
 *                  repaired reference time} sorted by local time (empty when no repair ran)
 */
public record SyncResult(String reference, List<NodeResult> nodes, List<PairResult> pairs,
                         Map<String, Object> stats, List<String> warnings, Map<String, long[][]> repairs) {
    public SyncResult {
        nodes = List.copyOf(nodes);
        pairs = List.copyOf(pairs);
        stats = Collections.unmodifiableMap(new LinkedHashMap<>(stats));
        warnings = List.copyOf(warnings);
        repairs = Collections.unmodifiableMap(new LinkedHashMap<>(repairs));
    }

    /** A result without repairs. */
    public SyncResult(String reference, List<NodeResult> nodes, List<PairResult> pairs,
                      Map<String, Object> stats, List<String> warnings) {
        this(reference, nodes, pairs, stats, warnings, Map.of());
    }

    /**
     * Node {@code name}'s reference time for local time t: the repaired time when the controlled
     * logical clock moved an event at t, else the transform's. O(log moved).
     */
    public long referenceTime(String name, NodeResult node, long t) {
        long[][] moved = repairs.get(name);
        if (moved != null && moved.length > 0) {
            int lo = 0;
            int hi = moved.length - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (moved[mid][0] < t) {
                    lo = mid + 1;
                } else if (moved[mid][0] > t) {
                    hi = mid - 1;
                } else {
                    return moved[mid][1];
                }
            }
        }
        return node.transform().apply(t);
    }

    public NodeResult node(String name) {
        for (NodeResult n : nodes) {
            if (n.name().equals(name)) {
                return n;
            }
        }
        throw new IllegalArgumentException("no node named '" + name + "'");
    }
}
