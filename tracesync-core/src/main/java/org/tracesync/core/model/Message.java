package org.tracesync.core.model;

/** A matched message, for code off the hot path (tests, evaluation, reports). */
public record Message(int sender, int receiver, long sendTime, long recvTime) {
}
