package org.tracesync.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.tracesync.cli.DurationConverter;
import org.tracesync.cli.MessageCoverage;
import org.tracesync.cli.SyncVerdict;
import org.tracesync.cli.OutputGuard;
import org.tracesync.cli.SyncSummary;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.InputOptions;
import org.tracesync.core.model.MinimumLatency;
import org.tracesync.formats.evaluate.RttFile;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.global.GlobalReduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tracesync-spark sync CAPTURE... -o result.json}: the options and result file of
 * {@code tracesync sync}, plus where Spark runs and how the work is cut. The work lives in
 * {@link SparkCaptureSync}.
 */
@Command(name = "sync", mixinStandardHelpOptions = true,
        description = {"Synchronizes pcap/pcapng captures (one per host) as a Spark job: same result file as 'tracesync sync'.",
            "Exit codes: 0 all nodes synchronized, 1 some nodes could not be synchronized, 2 usage error, 3 input error."})
public final class SparkSyncCommand implements Callable<Integer> {

    enum EstimatorChoice { bisector }

    enum ReductionChoice { global, path }

    @Parameters(arity = "1..*", paramLabel = "CAPTURE",
            description = "pcap/pcapng captures, one per host: paths or Hadoop file system URIs (file:, hdfs:, s3a:).")
    List<String> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the result file (JSON) here (on the driver).")
    Path output;

    @Option(names = "--reference", paramLabel = "NODE", description = "Use this node as the reference (default: the most central node of each group).")
    String reference;

    @Option(names = "--estimator", paramLabel = "NAME", defaultValue = "bisector",
            description = "Pair estimate: ${COMPLETION-CANDIDATES} (regression needs every message on the driver: use tracesync sync).")
    EstimatorChoice estimator;

    @Option(names = "--reduction", paramLabel = "NAME",
            description = {"Reduction to one reference: ${COMPLETION-CANDIDATES}. Default as tracesync sync: global for every"
                    + " group with redundant links, path composition otherwise."})
    ReductionChoice reduction;

    @Option(names = "--min-latency", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Strict minimum one-way latency of every message (e.g. 5us), as in tracesync sync.")
    Long minLatency;

    @Option(names = "--rtt", paramLabel = "FILE|exchanges",
            description = "Minimum latency per pair from minimum round trips: an RTT file, or 'exchanges' (the TCP"
                    + " exchanges the job finds), as in tracesync sync.")
    String rtt;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
    boolean quiet;

    @Option(names = "--name", split = ",", paramLabel = "NODE",
            description = "Node names of the captures, in input order (default: each file's stem).")
    List<String> names = new ArrayList<>();

    @Option(names = "--node-address", paramLabel = "NODE=ADDR[,ADDR...]",
            description = "A capturing host's own addresses (default: the pcapng interface addresses, else inferred).")
    Map<String, String> nodeAddresses = new LinkedHashMap<>();

    @Option(names = "--match-window", paramLabel = "SECONDS", defaultValue = "60",
            description = "Matching window: a packet's counterpart must lie within this many seconds of local time (default: ${DEFAULT-VALUE}).")
    double windowSeconds;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master (default: the one spark-submit gives, else local[*]).")
    String master;

    @Option(names = "--split-size", paramLabel = "BYTES", defaultValue = "134217728",
            description = "Bytes of capture per decoding task; larger captures are read by several tasks (default: ${DEFAULT-VALUE}).")
    long splitSize;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
            description = "Partitions of the matching shuffle (default: Spark's default parallelism).")
    int partitions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (minLatency != null && minLatency < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--min-latency must be >= 0");
        }
        if (minLatency != null && rtt != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "give either --rtt or --min-latency, not both");
        }
        if (!(windowSeconds > 0) || windowSeconds > 1e6) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--match-window must be a positive number of seconds");
        }
        if (splitSize < 4096 || partitions < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), splitSize < 4096
                    ? "--split-size must be at least 4096 bytes" : "--partitions must be >= 0");
        }
        if (output != null) {
            new OutputGuard(localPaths(inputs)).file("-o", output);
        }
        Map<String, List<String>> addr = new LinkedHashMap<>();
        nodeAddresses.forEach((k, v) -> addr.put(k, Arrays.asList(v.split(","))));
        InputOptions capture = InputOptions.defaults().withNames(names).withNodeAddresses(addr)
                .withWindow(Math.round(windowSeconds * 1e9));
        SparkCaptureSync.SyncOptions sync = (nodes, roundTrips) -> {
            // as tracesync sync: τmin goes into every pair's hulls, so the global program adds none of its own
            Synchronizer.Options o = new Synchronizer.Options(Synchronizer.Estimator.BISECTOR, 0.95, reference,
                    reduction == ReductionChoice.path ? PathReduction::reduce
                            : GlobalReduction.reducer(reduction == ReductionChoice.global
                                    ? GlobalReduction.Mode.EVERY_GROUP : GlobalReduction.Mode.WHERE_REDUNDANT, 0.0));
            if (minLatency != null) {
                return o.withLatency(MinimumLatency.uniform(nodes.size(), minLatency, "--min-latency " + minLatency + " ns"));
            }
            if ("exchanges".equals(rtt)) {
                return o.withLatency(roundTrips.asMinimumLatency("half the minimum round trip of TCP exchanges per pair"));
            }
            if (rtt != null) {
                return o.withLatency(RttFile.read(Path.of(rtt), nodes).asMinimumLatency("half the round trips of " + rtt));
            }
            return o;
        };
        SparkCaptureSync.Outcome outcome;
        try (JavaSparkContext sc = new JavaSparkContext(sparkConf(master))) {
            sc.setLogLevel("WARN");
            outcome = SparkCaptureSync.run(sc, inputs,
                    new SparkCaptureSync.Options(capture, sync, splitSize, partitions));
        }
        SyncResult synced = outcome.synchronization().result();
        if (reference != null && synced.nodes().stream().noneMatch(n -> n.name().equals(reference))) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--reference " + reference
                    + ": no such node (nodes: " + synced.nodes().stream().map(NodeResult::name).toList() + ")");
        }
        List<String> coverage = MessageCoverage.warnings(synced, outcome.eventSpans());
        List<String> warnings = new ArrayList<>(synced.warnings());
        warnings.addAll(coverage);
        SyncResult result = coverage.isEmpty() ? synced : new SyncResult(synced.reference(), synced.nodes(),
                synced.pairs(), synced.stats(), warnings, synced.repairs());
        if (output != null) {
            ResultFile.write(result, output);
        }
        if (!quiet) {
            java.io.PrintWriter out = spec.commandLine().getOut();
            out.print(SyncSummary.format(result, outcome.warnings()));
            if (output != null) {
                out.println("result written to " + output);
            }
            out.flush();
        }
        SyncVerdict verdict = SyncVerdict.of(result, 0);
        for (String reason : verdict.reasons()) {
            spec.commandLine().getErr().println("tracesync: " + reason);
        }
        spec.commandLine().getErr().flush();
        return verdict.exitCode();
    }

    /**
     * The job's Spark configuration: Kryo for the shuffled rows; in local mode, everything bound to
     * 127.0.0.1 and no web UI (nothing listens beyond this machine).
     */
    static SparkConf sparkConf(String master) {
        SparkConf conf = new SparkConf().setAppName("tracesync sync")
                .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .set("spark.kryo.registrator", TracesyncKryo.class.getName());
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        if (conf.get("spark.master").startsWith("local")) {
            conf.set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
                    .set("spark.ui.enabled", "false");
        }
        return conf;
    }

    /** The inputs that are local files (a plain path or a file: URI), for the output guard. */
    private static List<Path> localPaths(List<String> inputs) {
        List<Path> local = new ArrayList<>();
        for (String in : inputs) {
            if (in.startsWith("file:")) {
                try {
                    local.add(Path.of(java.net.URI.create(in)));
                } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
                    // not a hierarchical file URI: the job reports it when it opens the input
                }
            } else if (!in.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*")) {
                local.add(Path.of(in));
            }
        }
        return local;
    }
}
