package org.tracesync.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.tracesync.formats.spans.ShopSimulation;
import org.tracesync.formats.spans.SimulatedSpanWriter;
import org.tracesync.formats.spans.SpanFormat;
import org.tracesync.formats.truth.TruthFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tracesync simulate-spans}: span files of a simulated shop whose hosts' clocks disagree, and their truth. */
@Command(name = "simulate-spans", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulates a shop (5 services on 4 hosts with skewed, drifting clocks; RPC and async messaging)"
                + " and writes its spans as OTLP JSON lines, OTLP protobuf (the collector file exporter's length-prefixed"
                + " form), Jaeger JSON and/or Zipkin v2 JSON, plus truth.json"
                + " (the hosts' true clocks). Every format holds the same traces."})
public final class SimulateSpansCommand implements Callable<Integer> {

    enum Format {
        otlp, otlpProto, jaeger, zipkin;

        @Override
        public String toString() {
            return this == otlpProto ? "otlp-proto" : name();
        }
    }

    /** {@code otlp-proto} on the command line (picocli matches enum names otherwise). */
    static final class FormatConverter implements CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            for (Format f : Format.values()) {
                if (f.toString().equals(value)) {
                    return f;
                }
            }
            throw new CommandLine.TypeConversionException("expected one of otlp, otlp-proto, jaeger, zipkin, not '" + value + "'");
        }
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "Output directory (created).")
    Path output;

    @Option(names = "--traces", paramLabel = "N", defaultValue = "5000", description = "Number of traces (9 spans each; default: ${DEFAULT-VALUE}).")
    long traces;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--format", split = ",", paramLabel = "FMT", defaultValue = "otlp,jaeger,zipkin", converter = FormatConverter.class,
            description = "otlp, otlp-proto, jaeger, zipkin, or several (default: ${DEFAULT-VALUE}). Files: spans.otlp.jsonl,"
                    + " spans.otlp.binpb, spans.jaeger.json, spans.zipkin.json.")
    List<Format> formats;

    @Option(names = "--ns", description = "OTLP times at 1 ns resolution (default: 1 µs, as Jaeger and Zipkin, so that the files hold the same times); OTLP formats only.")
    boolean nanos;

    @Option(names = "--gap", paramLabel = "TIME", defaultValue = "2ms", converter = DurationConverter.class,
            description = "Mean time between traces (default: ${DEFAULT-VALUE}).")
    long gap;

    @Override
    public Integer call() throws Exception {
        List<Format> distinct = new ArrayList<>(EnumSet.copyOf(formats));
        if (nanos && (distinct.contains(Format.jaeger) || distinct.contains(Format.zipkin))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--ns is for the OTLP formats alone (Jaeger and Zipkin are µs)");
        }
        if (traces < 1 || gap < 1000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--traces must be >= 1 and --gap >= 1us");
        }
        OutputGuard guard = new OutputGuard(List.of());
        guard.directory("simulate-spans -o", output);
        List<String> own = new ArrayList<>(List.of("truth.json"));
        for (Format f : distinct) {
            own.add(fileName(f));
        }
        guard.onlyOwnEntries("simulate-spans -o", output, own, "choose a new or empty directory");
        Files.createDirectories(output);
        ShopSimulation.Config config = ShopSimulation.Config.defaults(seed).withResolution(nanos ? 1 : 1000).withGap(gap);
        List<SimulatedSpanWriter> writers = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try {
            for (Format f : distinct) {
                Path file = output.resolve(fileName(f));
                files.add(file);
                writers.add(new SimulatedSpanWriter(switch (f) {
                    case otlp -> SpanFormat.OTLP_JSON;
                    case otlpProto -> SpanFormat.OTLP_PROTO;
                    case jaeger -> SpanFormat.JAEGER_JSON;
                    case zipkin -> SpanFormat.ZIPKIN_JSON;
                }, file));
            }
            ShopSimulation sim = new ShopSimulation(config);
            for (long i = 0; i < traces; i++) {
                var trace = sim.nextTrace();
                for (SimulatedSpanWriter w : writers) {
                    w.write(trace);
                }
            }
            new TruthFile(config.t0(), sim.clocks(), 0).write(output.resolve("truth.json"));
        } finally {
            for (SimulatedSpanWriter w : writers) {
                w.close();
            }
        }
        for (Path f : files) {
            spec.commandLine().getOut().println("wrote " + f + " (" + traces + " traces, " + traces * 9 + " spans)");
        }
        spec.commandLine().getOut().println("wrote " + output.resolve("truth.json"));
        spec.commandLine().getOut().flush();
        return ExitCode.OK;
    }

    private static String fileName(Format f) {
        return switch (f) {
            case otlp -> "spans.otlp.jsonl";
            case otlpProto -> "spans.otlp.binpb";
            case jaeger -> "spans.jaeger.json";
            case zipkin -> "spans.zipkin.json";
        };
    }
}
