package org.tracesync.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.tracesync.cli.EstimationOptionsMixin;
import org.tracesync.cli.MatchOptionsMixin;
import org.tracesync.cli.MessageCoverage;
import org.tracesync.cli.SyncVerdict;
import org.tracesync.cli.OutputGuard;
import org.tracesync.cli.SyncSummary;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.result.ResultFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tracesync-spark sync TRACE... -o result.json}: the options and result file of
 * {@code tracesync sync} (the same mixins: {@link EstimationOptionsMixin}, {@link MatchOptionsMixin}),
 * plus where Spark runs and how the work is cut. The work lives in
 * {@link SparkCaptureSync}.
 */
@Command(name = "sync", mixinStandardHelpOptions = true,
        description = {"Synchronizes traces (pcap/pcapng captures, CTF traces, JSON-lines logs; one per node) as a Spark job:"
                + " same result file as 'tracesync sync'.",
            "Exit codes: 0 all nodes synchronized, 1 some nodes could not be synchronized, 2 usage error, 3 input error."})
public final class SparkSyncCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "TRACE",
            description = "One trace per node: pcap/pcapng captures and JSON-lines logs (paths or Hadoop file system URIs:"
                    + " file:, hdfs:, s3a:), CTF trace directories (local or shared file system).")
    List<String> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the result file (JSON) here (on the driver).")
    Path output;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
    boolean quiet;

    /** The options of tracesync sync, with their meaning there. */
    @Mixin
    EstimationOptionsMixin estimation;

    @Mixin
    MatchOptionsMixin match;

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
        estimation.check(spec.commandLine());
        if (splitSize < 4096 || partitions < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), splitSize < 4096
                    ? "--split-size must be at least 4096 bytes" : "--partitions must be >= 0");
        }
        InputOptions capture = match.toOptions();
        if (output != null) {
            new OutputGuard(localPaths(inputs)).file("-o", output);
        }
        String reference = estimation.reference();
        SparkCaptureSync.SyncOptions sync = (nodes, roundTrips) -> {
            Synchronizer.Options o = estimation.toOptions(nodes);
            return estimation.rttFromExchanges()
                    ? o.withLatency(roundTrips.asMinimumLatency("half the minimum round trip of TCP exchanges per pair"))
                    : o;
        };
        SparkCaptureSync.Outcome outcome;
        try (JavaSparkContext sc = new JavaSparkContext(sparkConf(master))) {
            sc.setLogLevel("WARN");
            outcome = SparkCaptureSync.run(sc, inputs,
                    new SparkCaptureSync.Options(capture, sync, splitSize, partitions,
                            estimation.estimator() == EstimationOptionsMixin.EstimatorChoice.regression));
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
