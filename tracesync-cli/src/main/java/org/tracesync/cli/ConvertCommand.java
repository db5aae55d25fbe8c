package org.tracesync.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CaptureToCtf;
import org.tracesync.formats.pcap.CaptureNodes;
import org.tracesync.formats.pcap.CaptureReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracesync convert --to ctf CAPTURE... --out DIR}: captures as LTTng-style kernel traces. */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Converts packet captures (pcap/pcapng) into LTTng-2.9-style CTF kernel traces (one per capture,"
                + " in DIR/NODE): net_dev_queue / net_if_receive_skb events with the IP and TCP/UDP headers.",
            "Exit codes: 0 success, 2 usage error, 3 input error."})
public final class ConvertCommand implements Callable<Integer> {

    enum Target { ctf }

    @Option(names = "--to", required = true, paramLabel = "FORMAT", description = "Target format: ${COMPLETION-CANDIDATES}.")
    Target target;

    @Parameters(arity = "1..*", paramLabel = "CAPTURE", description = "pcap or pcapng captures, one per node.")
    List<Path> captures;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory (one trace per node).")
    Path out;

    @Mixin
    CaptureOptionsMixin captureOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        OutputGuard guard = new OutputGuard(captures);
        guard.directory("--out", out);
        for (Path p : captures) {
            if (!Files.exists(p)) {
                throw new TraceFormatException(p, "", "no such file");
            }
            if (!CaptureReader.isCapture(p)) {
                throw new TraceFormatException(p, "", "not a pcap or pcapng capture");
            }
        }
        List<NodeInfo> nodes = CaptureNodes.resolve(captures, captureOptions.toOptions());
        for (NodeInfo n : nodes) {
            Path dir = out.resolve(n.name());
            guard.directory("--out", dir);
            if (Files.exists(dir.resolve("metadata"))) {
                throw new CommandFailure(ExitCode.USAGE, "--out " + out + ": " + dir
                        + " already holds a trace; choose another --out");
            }
        }
        PrintWriter o = spec.commandLine().getOut();
        for (int i = 0; i < captures.size(); i++) {
            Path dir = out.resolve(nodes.get(i).name());
            CaptureToCtf.Outcome oc = CaptureToCtf.convert(captures.get(i), nodes.get(i), dir);
            o.printf("%s: %s -> %s (%d packets%s; own addresses %s)%n", nodes.get(i).name(), captures.get(i),
                    oc.trace(), oc.packets(), oc.skipped() > 0 ? ", " + oc.skipped() + " non-IP or out-of-order skipped" : "",
                    nodes.get(i).addresses());
        }
        o.flush();
        return 0;
    }
}
