package org.tracesync.core.model;

/** Receives the network events of one trace, in that trace's timestamp order. */
@FunctionalInterface
public interface NetEventSink {
    void event(NetEvent event);
}
