package org.tracesync.spark;

import java.io.Serializable;

/**
 * One task's share of a trace that is not a capture: one stream file of a CTF trace directory, or
 * the lines of a JSON-lines log that start in bytes [start, end), of node {@code file}.
 *
 * @param kind      {@link #CTF} or {@link #JSON_LINES}
 * @param uri       the trace as a Hadoop file system URI or path (JSON lines)
 * @param local     the trace on the local (or a shared) file system (CTF)
 * @param name      the trace as the user named it (in messages)
 * @param node      the node's name (a JSON-lines log holds one node's events)
 * @param stream    the CTF stream file's index in the trace (-1 for JSON lines)
 * @param firstLine the line number of the part's first line (JSON lines; from the line pass)
 * @param carry     the largest (corrected) time of the trace's events before this part
 *                  ({@link Long#MIN_VALUE} for the first): the one-machine merge order
 * @param offset    the node's coarse clock offset (ns), subtracted from its times for matching
 */
public record TraceSpec(int file, int kind, String uri, String local, String name, String node, int stream,
                        int part, int parts, long start, long end, long firstLine, long carry, long offset)
        implements Serializable {
    public static final int CTF = 1;
    public static final int JSON_LINES = 2;

    TraceSpec withLines(long first, long carryTime) {
        return new TraceSpec(file, kind, uri, local, name, node, stream, part, parts, start, end, first, carryTime, offset);
    }

    TraceSpec withOffset(long o) {
        return new TraceSpec(file, kind, uri, local, name, node, stream, part, parts, start, end, firstLine, carry, o);
    }
}
