package org.tracesync.spark;

import java.io.Serializable;

/**
 * Counts of the matching stage, per partition, summed on the driver ({@code tcpSegments}: events that
 * were TCP segments with addresses, which can form exchanges).
 */
public record MatchStats(long events, long messages, long ambiguous, long retransmissions, long duplicateEvents,
                         long sameNode, long unmatched, long exchanges, long connections,
                         long broadcastGroups, long broadcastAmbiguous, long tcpSegments) implements Serializable {

    public static final MatchStats ZERO = new MatchStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public MatchStats plus(MatchStats o) {
        return new MatchStats(events + o.events, messages + o.messages, ambiguous + o.ambiguous,
                retransmissions + o.retransmissions, duplicateEvents + o.duplicateEvents, sameNode + o.sameNode,
                unmatched + o.unmatched, exchanges + o.exchanges, connections + o.connections,
                broadcastGroups + o.broadcastGroups, broadcastAmbiguous + o.broadcastAmbiguous,
                tcpSegments + o.tcpSegments);
    }
}
