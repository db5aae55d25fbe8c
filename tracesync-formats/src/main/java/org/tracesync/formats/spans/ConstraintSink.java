package org.tracesync.formats.spans;

/**
 * Receives the causal constraints found between spans on different hosts: the event at
 * {@code toTime} on host {@code to} happened after the event at {@code fromTime} on host {@code from}
 * (raw times, each on its own host's clock; {@code resolution} is the coarser of the two timestamp
 * resolutions, ns).
 */
@FunctionalInterface
public interface ConstraintSink {

    /** What a constraint says. */
    enum Kind {
        /** A SERVER (or CONSUMER of a CLIENT) started after its CLIENT started. */
        CALL_START,
        /** A SERVER ended before its CLIENT ended (only when the client's duration is the longer). */
        CALL_END,
        /** A CONSUMER (or SERVER of a PRODUCER) started after its PRODUCER started. */
        MESSAGE_START
    }

    void constraint(Kind kind, int from, int to, long fromTime, long toTime, long resolution,
                    long traceHi, long traceLo);
}
