package org.tracesync.core.reduce;

import java.util.List;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.core.transform.ClockTransform;

/**
 * The synchronization of one node (DESIGN §7).
 *
 * @param name      node name
 * @param source    where the trace was read from
 * @param reference the node whose clock {@code transform} maps to (itself for a reference or an
 *                  unsynchronized node)
 * @param quality   {@link Quality#REFERENCE} for a reference; else the weakest pair quality on the
 *                  path to the reference; for an unsynchronized node, the best quality of its
 *                  own pairs (one-way, absent, invalid)
 * @param transform local time → reference time
 * @param bounds    accuracy bounds around {@code transform}; {@link NodeBounds#NONE} when unknown
 * @param path      node names from this node to its reference (inclusive), empty if none
 * @param start     first local timestamp seen in messages (ns), or 0 when none
 * @param end       last local timestamp seen in messages (ns), or 0 when none
 * @param note      why, in a sentence (empty when nothing to say)
 */
public record NodeResult(String name, String source, String reference, Quality quality,
                         ClockTransform transform, NodeBounds bounds, List<String> path,
                         long start, long end, String note) {
    public NodeResult {
        path = List.copyOf(path);
    }

    /** The same result with {@code how} added to its note, in parentheses. */
    public NodeResult withNoteAdded(String how) {
        return new NodeResult(name, source, reference, quality, transform, bounds, path, start, end,
                note + " (" + how + ")");
    }

    public boolean synchronizedToOther() {
        return !reference.equals(name);
    }
}
