package org.tracesync.spark;

import java.io.Serializable;

/**
 * One task's share of a capture: bytes [start, end) of input {@code file} (its node index).
 *
 * @param uri      the capture as a Hadoop file system URI or path
 * @param name     the capture as the user named it (in error messages)
 * @param boundary {@code start} is a record boundary checked by the boundary pass (no re-synchronization)
 * @param carry    the largest timestamp of the capture's records before this part
 *                 ({@link Long#MIN_VALUE} for the first part): the merge order of the one-machine
 *                 reader depends on it when timestamps go backwards
 */
public record PartSpec(int file, int part, int parts, String uri, String name, long start, long end,
                       boolean boundary, long carry) implements Serializable {

    /** A part found by re-synchronization (the boundary pass reads these). */
    static PartSpec guessed(int file, int part, int parts, String uri, String name, long start, long end) {
        return new PartSpec(file, part, parts, uri, name, start, end, false, Long.MIN_VALUE);
    }
}
