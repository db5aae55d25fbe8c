package org.tracesync.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.formats.InputOptions;
import picocli.CommandLine.Option;

/**
 * What identifies the nodes of a trace set and how far apart a send and its receive may lie: the
 * options that mean the same wherever traces are matched ({@code tracesync sync}, {@code eval},
 * {@code tracesync-spark sync}).
 */
public final class MatchOptionsMixin {

    @Option(names = "--name", split = ",", paramLabel = "NODE",
            description = "Node names of the captures, in input order (default: each file's stem).")
    List<String> names = new ArrayList<>();

    @Option(names = "--node-address", paramLabel = "NODE=ADDR[,ADDR...]",
            description = "A capturing host's own addresses (default: the pcapng interface addresses, else inferred: "
                    + "the address present in the most packets).")
    Map<String, String> nodeAddresses = new LinkedHashMap<>();

    @Option(names = "--match-window", paramLabel = "SECONDS", defaultValue = "60",
            description = "Matching window (every trace format): a send and its receive must lie within this many"
                    + " seconds of each other, after the coarse clock offsets found from the traces' first events"
                    + " (default: ${DEFAULT-VALUE}).")
    double windowSeconds;

    /** The input options these give (a usage error for a window out of range). */
    public InputOptions toOptions() {
        if (!(windowSeconds > 0) || windowSeconds > 1e6) {
            throw new CommandFailure(ExitCode.USAGE, windowSeconds > 1e6
                    ? "--match-window: at most 1000000 seconds (11.6 days); offsets larger than that are not clocks to"
                            + " synchronize"
                    : "--match-window: a number of seconds greater than 0");
        }
        Map<String, List<String>> addr = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : nodeAddresses.entrySet()) { // a loop, not a lambda: linked at every start
            addr.put(e.getKey(), Arrays.asList(e.getValue().split(",")));
        }
        return InputOptions.defaults().withNames(names).withNodeAddresses(addr)
                .withWindow(Math.round(windowSeconds * 1e9));
    }
}
