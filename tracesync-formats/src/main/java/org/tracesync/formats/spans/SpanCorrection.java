package org.tracesync.formats.spans;

import org.tracesync.core.reduce.NodeResult;

/**
 * How one host's timestamps change when its span files are corrected: the host's transform onto its
 * reference, its bounds and quality (from the result file), or nothing for a host the result does not
 * know. O(segments) per timestamp, O(log rows) per bound lookup.
 */
public record SpanCorrection(NodeResult node) {

    /** The corrected time (ns) of local time {@code t} (ns); unchanged for an unknown host. */
    public long apply(long t) {
        return node == null ? t : node.transform().apply(t);
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
}
