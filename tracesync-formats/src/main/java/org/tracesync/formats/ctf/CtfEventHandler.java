package org.tracesync.formats.ctf;

import java.io.IOException;

/** Receives the events of a CTF trace; the event view is only valid during the call. */
@FunctionalInterface
public interface CtfEventHandler {
    void event(CtfEvent event) throws IOException;
}
