package org.tracesync.core.simulate;

/** What the simulated events carry as match keys. */
public enum KeyKind {
    /** Application message ids ({@link org.tracesync.core.matching.MessageIdKey}), as JSON-lines logs. */
    MESSAGE_ID,
    /** TCP-like segments ({@link org.tracesync.core.matching.TcpSegmentKey}), as packet captures. */
    TCP
}
