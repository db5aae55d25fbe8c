package org.tracesync.spark;

import java.io.Serializable;
import java.util.List;

/**
 * What one task found in a CTF stream file or a part of a JSON-lines log (first and last time: the
 * part's, for the backward steps at the joins of a log's parts): the same counts as the one-machine
 * reader, the reader's warnings, and the addresses its cursor added to the task's address table
 * beyond the traced hosts' ({@code foreign}: hi, lo pairs in id order from {@code firstForeignId}),
 * which the driver checks are numbered alike in every task.
 */
public record TraceReport(int file, int stream, int part, long events, long keyEvents, long otherEvents,
                          long backwardTimestamps, long firstTime, long lastTime, long maxTime, int firstForeignId, long[] foreign,
                          List<String> warnings) implements Serializable {
}
