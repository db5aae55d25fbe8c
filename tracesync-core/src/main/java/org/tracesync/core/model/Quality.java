package org.tracesync.core.model;

/**
 * Quality class of a pair estimate or of a node's synchronization (DESIGN §3). The label is the
 * string written in the result file.
 */
public enum Quality {
    /** Feasible region bounded and non-empty. */
    ACCURATE("accurate"),
    /**
     * Both directions present, but the drift is not bounded by them (feasible region unbounded in
     * drift, or allowing a clock rate ≤ 0): a line strictly inside the corridor, bounds where finite.
     */
    INCOMPLETE("incomplete"),
    /** Messages in one direction only: a one-sided bound, no estimate. */
    ONE_WAY("one-way"),
    /** No messages. */
    ABSENT("absent"),
    /** Feasible region empty: the hulls cross; the minimax line (smallest largest violation) is used. */
    FALLBACK("fallback"),
    /** Feasible region only allows a non-positive clock slope: not a clock. */
    INVALID("invalid"),
    /** Continuous piecewise-linear transform (DESIGN §6). */
    PIECEWISE("piecewise"),
    /** The node is its group's reference. */
    REFERENCE("reference");

    private final String label;

    Quality(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static Quality fromLabel(String label) {
        for (Quality q : values()) {
            if (q.label.equals(label)) {
                return q;
            }
        }
        throw new IllegalArgumentException("unknown quality '" + label + "'");
    }

    /** True when a pair of this quality yields a two-sided estimate usable for reduction. */
    public boolean hasEstimate() {
        return this == ACCURATE || this == INCOMPLETE || this == FALLBACK || this == PIECEWISE;
    }

    @Override
    public String toString() {
        return label;
    }
}
