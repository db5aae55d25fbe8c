package org.tracesync.core.model;

/** Whether a traced event is the emission or the reception of a message. */
public enum Direction {
    SEND,
    RECEIVE
}
