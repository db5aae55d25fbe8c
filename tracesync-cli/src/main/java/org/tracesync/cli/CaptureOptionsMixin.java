package org.tracesync.cli;

import org.tracesync.formats.InputOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Input options shared by the commands that read traces: captures' names and addresses, matching window, threads. */
public final class CaptureOptionsMixin {

    @Mixin
    MatchOptionsMixin match;

    @Option(names = "--no-reader-thread",
            description = "Read and decode captures on the calling thread too (default: on a second thread when the "
                    + "machine has more than one processor; same results, faster when a core is free).")
    boolean noReaderThread;

    InputOptions toOptions() {
        return match.toOptions().withReaderThread(!noReaderThread && InputOptions.defaults().readerThread());
    }
}
