package org.tracesync.core.evaluate;

import java.util.List;

/** Every node's true clock (see {@link TrueClock}) around a common origin {@code t0} (ns). */
public record TruthModel(long t0, List<TrueClock> clocks) {
    public TruthModel {
        clocks = List.copyOf(clocks);
    }

    /** The clock of node {@code name}, or null. */
    public TrueClock clock(String name) {
        for (TrueClock c : clocks) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /**
     * What {@code to}'s clock read (relative to t0, ns) at the true instant when {@code from}'s
     * clock read {@code local}.
     */
    public double translate(TrueClock from, TrueClock to, long local) {
        return to.localRelative(from.trueRelative((double) (local - t0)));
    }
}
