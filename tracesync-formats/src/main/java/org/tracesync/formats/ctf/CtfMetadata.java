package org.tracesync.formats.ctf;

import java.util.List;
import java.util.Map;

import org.tracesync.formats.ctf.CtfType.StructType;

/**
 * The typed model of a CTF 1.8 trace's TSDL metadata.
 *
 * @param trace   the {@code trace} block
 * @param env     the {@code env} block (values are Long or String)
 * @param clocks  the clock classes, in declaration order
 * @param streams the stream classes, by id
 * @param events  the event classes, in declaration order
 */
public record CtfMetadata(TraceClass trace, Map<String, Object> env, List<ClockClass> clocks,
                          Map<Long, StreamClass> streams, List<EventClass> events) {

    public CtfMetadata {
        env = Map.copyOf(env);
        clocks = List.copyOf(clocks);
        streams = Map.copyOf(streams);
        events = List.copyOf(events);
    }

    /** @param uuid null when absent; {@code packetHeader} null when absent */
    public record TraceClass(int major, int minor, String uuid, boolean bigEndian, StructType packetHeader) {
    }

    /**
     * A clock class. A value v of this clock is, in ns since its origin,
     * {@code offsetSeconds·10⁹ + (offset + v)·10⁹ / freq} ({@link CtfClockConversion}).
     */
    public record ClockClass(String name, String uuid, String description, long freq, long offsetSeconds,
                             long offset, long precision, boolean absolute) {
    }

    /** A stream class; each scope is null when absent. */
    public record StreamClass(long id, StructType packetContext, StructType eventHeader, StructType eventContext) {
    }

    /** An event class; {@code loglevel} is -1 when absent; scopes null when absent. */
    public record EventClass(String name, long id, long streamId, long loglevel, StructType context,
                             StructType fields) {
    }

    /** The hostname from the environment, or null. */
    public String hostname() {
        Object h = env.get("hostname");
        return h == null ? null : h.toString();
    }

    /** The clock with that name, or null. */
    public ClockClass clock(String name) {
        for (ClockClass c : clocks) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }
}
