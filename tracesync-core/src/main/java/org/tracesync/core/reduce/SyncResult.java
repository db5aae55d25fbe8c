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
 */
public record SyncResult(String reference, List<NodeResult> nodes, List<PairResult> pairs,
                         Map<String, Object> stats, List<String> warnings) {
    public SyncResult {
        nodes = List.copyOf(nodes);
        pairs = List.copyOf(pairs);
        stats = Collections.unmodifiableMap(new LinkedHashMap<>(stats));
        warnings = List.copyOf(warnings);
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
