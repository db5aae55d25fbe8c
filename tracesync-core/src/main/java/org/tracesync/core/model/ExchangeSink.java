package org.tracesync.core.model;

/**
 * Receives exchanges found by matching (DESIGN §1 stage 2, §5): a data message a → b and the
 * message b → a that acknowledges it. Four local timestamps: t1 a sends the data, t2 b receives
 * it, t3 b sends the acknowledgement, t4 a receives it (t1, t4 on a's clock; t2, t3 on b's).
 * Hot path: primitive arguments, no object per exchange.
 */
@FunctionalInterface
public interface ExchangeSink {
    /**
     * @param a  index of the node that sent the data (and received the acknowledgement)
     * @param b  index of the node that received the data (and sent the acknowledgement)
     */
    void exchange(int a, int b, long t1, long t2, long t3, long t4);
}
