package org.tracesync.spark;

import java.io.Serializable;

/**
 * One task's share of a capture: bytes [start, end) of input {@code file} (its node index).
 *
 * @param uri  the capture as a Hadoop file system URI or path
 * @param name the capture as the user named it (in error messages)
 */
public record PartSpec(int file, int part, int parts, String uri, String name, long start, long end)
        implements Serializable {
}
