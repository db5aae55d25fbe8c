package org.tracesync.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.ctf.CtfClockRewrite;
import org.tracesync.formats.result.ResultFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code tracesync apply RESULT --out DIR}: synchronized copies of the traces of a result file.
 * CTF traces get a rewritten metadata clock (streams copied untouched) through {@link CtfApplier},
 * which implements the per-format {@link TraceApplier} interface of the capture branch's apply
 * (when both are merged, register {@code new CtfApplier()} there and keep this command's up-front
 * refusal of piecewise transforms).
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = {"Writes synchronized copies of the traces of a result file into DIR (one sub-directory per node).",
            "CTF: the metadata clock (freq, offset_s, offset) is rewritten, streams are copied untouched;"
                + " the time is exact at mid-trace and the remaining error bound is printed.",
            "Exit codes: 0 all traces written, 1 some traces not rewritten (not CTF, or piecewise transform),"
                + " 2 usage error, 3 input error."})
public final class ApplyCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RESULT", description = "A result file written by 'tracesync sync -o'.")
    Path resultFile;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory for the synchronized copies.")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SyncResult result = ResultFile.read(resultFile);
        List<String> refused = new ArrayList<>();
        for (NodeResult n : result.nodes()) {
            if (!n.transform().isLinear()) {
                refused.add(n.name() + ": piecewise transform (" + n.transform().segments().size()
                        + " segments); a CTF clock can only express a linear transform and rewriting every"
                        + " timestamp is not implemented yet");
            }
        }
        if (!refused.isEmpty()) {
            for (String r : refused) {
                err.println("tracesync apply: refused: " + r);
            }
            err.flush();
            return TracesyncCommand.EXIT_PARTIAL;
        }
        int skipped = 0;
        CtfApplier ctf = new CtfApplier();
        for (NodeResult n : result.nodes()) {
            Path src = locate(n.source());
            if (src == null || !ctf.accepts(src)) {
                o.println(n.name() + ": skipped (" + n.source() + " is not a CTF trace directory; apply rewrites CTF"
                        + " traces only for now)");
                skipped++;
                continue;
            }
            CtfClockRewrite.Outcome oc = ctf.rewrite(src, n, out);
            o.printf("%s: %s -> %s (clock %s: freq %d Hz, offset_s %d, offset %d; exact at %d ns,"
                            + " error at most %.1f ns over the trace; reference %s)%n",
                    n.name(), src, oc.output(), oc.clock(), oc.freq(), oc.offsetSeconds(), oc.offset(), oc.middle(),
                    oc.errorBoundNs(), n.reference());
        }
        o.flush();
        return skipped > 0 ? TracesyncCommand.EXIT_PARTIAL : 0;
    }

    private Path locate(String source) {
        if (source == null || source.isEmpty()) {
            return null;
        }
        Path p = Path.of(source);
        if (Files.exists(p)) {
            return p;
        }
        Path parent = resultFile.toAbsolutePath().getParent();
        if (!p.isAbsolute() && parent != null && Files.exists(parent.resolve(p))) {
            return parent.resolve(p);
        }
        return null;
    }
}
