package org.tracesync.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.formats.truth.TruthFile;
import org.tracesync.formats.pcap.CaptureNodes;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.pcap.CaptureRewriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tracesync skew CAPTURE... --out DIR --clock NODE=ALPHA[,BETA[,DELTA]] --truth FILE}:
 * for testbeds — captures taken on one clock are rewritten as if each host had its own clock
 * {@code local(t) = t + alpha + beta·(t − T0) + delta·(t − T0)²}, and the models are written as
 * a truth file for {@code eval --truth}.
 */
@Command(name = "skew", mixinStandardHelpOptions = true,
        description = {"Testbeds: rewrites captures taken on one clock with per-host clock models "
                + "local(t) = t + alpha + beta*(t - T0) + delta*(t - T0)^2 (ns) and writes the truth file.",
            "Exit codes: 0 success, 2 usage error, 3 input error."})
public final class SkewCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "CAPTURE", description = "pcap/pcapng captures, node = file stem.")
    List<Path> captures;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where the skewed captures go.")
    Path outDir;

    @Option(names = "--clock", paramLabel = "NODE=ALPHA[,BETA[,DELTA]]",
            description = "A node's clock model: offset alpha (ns), drift beta, quadratic delta (1/ns). Default: the true clock.")
    Map<String, String> clocks = new LinkedHashMap<>();

    @Option(names = "--truth", required = true, paramLabel = "FILE", description = "Write the truth file here.")
    Path truthFile;

    @Option(names = "--t0", paramLabel = "NS", description = "T0 (ns); default: the first timestamp of all captures.")
    Long t0;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        OutputGuard guard = new OutputGuard(captures);
        guard.directory("--out", outDir);
        for (Path p : captures) {
            guard.file("--out", outDir.resolve(p.getFileName()));
        }
        guard.file("--truth", truthFile);
        long origin = t0 == null ? firstTimestamp() : t0;
        List<ClockModel> models = new ArrayList<>();
        for (Path p : captures) {
            String name = CaptureNodes.stem(p);
            String spec1 = clocks.getOrDefault(name, "0");
            String[] f = spec1.split(",");
            if (f.length > 3) {
                throw new CommandFailure(ExitCode.USAGE, "--clock " + name + "=" + spec1 + ": expected ALPHA[,BETA[,DELTA]]");
            }
            try {
                models.add(new ClockModel(name, origin, Math.round(Double.parseDouble(f[0])),
                        f.length > 1 ? Double.parseDouble(f[1]) : 0, f.length > 2 ? Double.parseDouble(f[2]) : 0));
            } catch (NumberFormatException e) {
                throw new CommandFailure(ExitCode.USAGE, "--clock " + name + "=" + spec1 + ": not numbers");
            }
        }
        for (String n : clocks.keySet()) {
            if (models.stream().noneMatch(m -> m.name().equals(n))) {
                throw new CommandFailure(ExitCode.USAGE, "--clock " + n + ": no capture of that name");
            }
        }
        Files.createDirectories(outDir);
        java.io.PrintWriter out = spec.commandLine().getOut();
        for (int i = 0; i < captures.size(); i++) {
            ClockModel c = models.get(i);
            Path dest = outDir.resolve(captures.get(i).getFileName());
            if (!c.increasingOver(origin, origin + 86_400_000_000_000L)) {
                throw new CommandFailure(ExitCode.USAGE, "--clock " + c.name() + ": not an increasing clock");
            }
            Path in = captures.get(i);
            long[] n = {0};
            org.tracesync.formats.io.AtomicFile.write(dest, tmp -> n[0] = CaptureRewriter.rewrite(in, tmp, c::local));
            out.println(c.name() + ": " + n[0] + " packets -> " + dest);
        }
        new TruthFile(origin, models, -1).write(truthFile); // messages: unknown here (-1)
        out.println("truth written to " + truthFile);
        out.flush();
        return 0;
    }

    private long firstTimestamp() throws java.io.IOException {
        long min = Long.MAX_VALUE;
        for (Path p : captures) {
            try (CaptureReader r = CaptureReader.open(p)) {
                if (r.next()) {
                    min = Math.min(min, r.timestamp());
                }
            }
        }
        if (min == Long.MAX_VALUE) {
            throw new CommandFailure(ExitCode.INPUT, "the captures hold no packet: " + captures);
        }
        return min;
    }
}
