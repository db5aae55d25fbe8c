package org.tracesync.core.matching;

/** Match key of an application message: its id (JSON-lines input, RPC ids, queue ids). */
public record MessageIdKey(String id) {
}
