package org.tracesync.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the alternating run classes print beside their figures: medians and the machine's load. */
public final class RunStats {

    private RunStats() {
    }

    /** The median of {@code sorted} (ascending, not empty): the middle value, or the mean of the two middle ones. */
    public static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The one-minute load average (Linux /proc/loadavg), or "?" where it cannot be read. */
    public static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }
}
