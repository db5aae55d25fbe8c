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
 * @param repairs   events moved by the controlled logical clock, by node name: one row {local
 *                  time, repaired reference time, reading before the repair} per moved event
 *                  ({@link RepairMoves}; empty when no repair ran)
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
     * Node {@code name}'s reference time for local time t read by its local time's segment: the
     * repaired time when the controlled logical clock moved that event, else the transform's.
     * Around a clock step use {@link #referenceTime(String, long, long)} with the reading placed
     * by position. O(log moved).
     */
    public long referenceTime(String name, NodeResult node, long t) {
        return referenceTime(name, t, node.transform().apply(t));
    }

    /**
     * Node {@code name}'s reference time for the event at local time t whose reading (the
     * transform's, placed by position around a step) is {@code fitted}: the repaired time when the
     * controlled logical clock moved it, else {@code fitted}. O(log moved).
     */
    public long referenceTime(String name, long t, long fitted) {
        long[][] moved = repairs.get(name);
        return moved == null ? fitted : RepairMoves.referenceTime(moved, t, fitted);
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
