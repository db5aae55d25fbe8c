package org.tracesync.core.model;

/**
 * One network event of one trace, as a source emits it (DESIGN §1).
 *
 * @param direction send or receive
 * @param timestamp local timestamp of the trace, int64 nanoseconds
 * @param key       what identifies the message across traces: a record with value equality
 *                  (for instance {@code org.tracesync.core.matching.TcpSegmentKey}
 *                  or {@code org.tracesync.core.matching.MessageIdKey})
 */
public record NetEvent(Direction direction, long timestamp, Object key) {
}
