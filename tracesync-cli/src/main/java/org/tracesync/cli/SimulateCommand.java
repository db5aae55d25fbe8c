package org.tracesync.cli;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClockWander;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.LatencyModel;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.SimulationSink;
import org.tracesync.core.simulate.Topology;
import org.tracesync.core.model.Direction;
import org.tracesync.formats.ctf.CtfTraceWriter;
import org.tracesync.formats.jsonl.JsonLinesWriter;
import org.tracesync.formats.lttv.LttvTextWriter;
import org.tracesync.formats.pcap.LinkTypes;
import org.tracesync.formats.pcap.PacketBuilder;
import org.tracesync.formats.pcap.PcapngWriter;
import org.tracesync.formats.pcap.TimestampResolution;
import org.tracesync.formats.truth.TruthFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tracesync simulate}: writes the traces of a simulated cluster and their truth. */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulates a cluster whose clocks disagree and writes its traces plus truth.json "
                + "(the true clock of every node: local(t) = t + alpha + beta·(t − T0) + delta·(t − T0)², "
                + "plus the rate changes and steps of wandering clocks: --walk, --ntp, --slews, --steps).",
            "One format: files go straight into DIR; several: into DIR/<format>/ each, with its own truth.json.",
            "Exit codes: 0 written; 2 usage error, DIR holds other files, or the output would exceed 1 GB (both"
                + " without --force)."})
public final class SimulateCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { text, jsonl, pcap, ctf }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "Output directory (created).")
    Path output;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "3", description = "Number of nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--topology", paramLabel = "KIND", defaultValue = "mesh",
            description = "Who talks to whom: chain, star or mesh (default: ${DEFAULT-VALUE}).")
    String topology;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed; equal seeds give equal output (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "10s", converter = DurationConverter.class,
            description = "Traffic duration, e.g. 10s, 500ms, 2m (default: ${DEFAULT-VALUE}).")
    long duration;

    @Option(names = "--rate", paramLabel = "PER_S", defaultValue = "100",
            description = "Messages per second per link and direction (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--format", split = ",", paramLabel = "FMT", defaultValue = "jsonl",
            description = "text (LTTV text), jsonl (JSON lines), pcap (pcapng captures of TCP segments), ctf (LTTng "
                    + "kernel traces of the same segments), or several: text,jsonl,pcap,ctf (default: ${DEFAULT-VALUE}).")
    List<Format> formats;

    @Option(names = "--acks", description = "Answer every message with an acknowledgement.")
    boolean acks;

    @Option(names = "--broadcast", paramLabel = "PER_S", arity = "0..1", fallbackValue = "5", defaultValue = "0",
            description = "Broadcasts per second per node to all its neighbours (--broadcast alone: 5/s).")
    double broadcast;

    @Option(names = "--max-offset", paramLabel = "TIME", defaultValue = "1s", converter = DurationConverter.class,
            description = "Clock offsets drawn in ±TIME (default: ${DEFAULT-VALUE}).")
    long maxOffset;

    @Option(names = "--max-drift", paramLabel = "PPM", defaultValue = "50",
            description = "Clock drifts drawn in ±PPM parts per million (default: ${DEFAULT-VALUE}).")
    double maxDriftPpm;

    @Option(names = "--max-drift-change", paramLabel = "PPM_PER_H", defaultValue = "0",
            description = "Drift changes by up to ±PPM_PER_H ppm per hour (quadratic clocks; default: ${DEFAULT-VALUE}).")
    double maxDriftChange;

    @Option(names = "--walk", paramLabel = "PPM", defaultValue = "0",
            description = "Frequency random walk: every --walk-interval each clock's rate changes by a normal draw of this "
                    + "standard deviation in ppm (0 = none; e.g. 0.01).")
    double walkPpm;

    @Option(names = "--walk-interval", paramLabel = "TIME", defaultValue = "10s", converter = DurationConverter.class,
            description = "Interval of the random walk's rate changes (default: ${DEFAULT-VALUE}).")
    long walkInterval;

    @Option(names = "--ntp", paramLabel = "PPM", defaultValue = "0",
            description = "NTP-like rate corrections: every --ntp-interval each clock's rate changes by up to ±PPM (0 = none; e.g. 1).")
    double ntpPpm;

    @Option(names = "--ntp-interval", paramLabel = "TIME", defaultValue = "1024s", converter = DurationConverter.class,
            description = "Interval of the NTP-like corrections (default: ${DEFAULT-VALUE}).")
    long ntpInterval;

    @Option(names = "--slews", paramLabel = "N", defaultValue = "0",
            description = "Slews per clock, 0.5-4 s long at --slew-rate, at random instants (default: ${DEFAULT-VALUE}).")
    int slews;

    @Option(names = "--slew-rate", paramLabel = "PPM", defaultValue = "500",
            description = "Rate of a slew in ppm (ntpd: at most 500; default: ${DEFAULT-VALUE}).")
    double slewRatePpm;

    @Option(names = "--steps", paramLabel = "N", defaultValue = "0",
            description = "Clock steps over the cluster (random nodes but the first, random sign, at least 1 ms; default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--step-size", paramLabel = "TIME", defaultValue = "5ms", converter = DurationConverter.class,
            description = "Largest step (default: ${DEFAULT-VALUE}).")
    long stepSize;

    @Option(names = "--min-latency", paramLabel = "TIME", defaultValue = "60us", converter = DurationConverter.class,
            description = "Minimum one-way latency from a link's first to its second node (default: ${DEFAULT-VALUE}).")
    long minLatency;

    @Option(names = "--min-latency-back", paramLabel = "TIME", defaultValue = "80us", converter = DurationConverter.class,
            description = "Minimum latency the other way (default: ${DEFAULT-VALUE}).")
    long minLatencyBack;

    @Option(names = "--latency-tail", paramLabel = "TIME", defaultValue = "100us", converter = DurationConverter.class,
            description = "Mean (exponential) or scale (Pareto) of the random latency above the minimum (default: ${DEFAULT-VALUE}).")
    long tail;

    @Option(names = "--pareto", paramLabel = "SHAPE",
            description = "Pareto-distributed latency tail of this shape instead of exponential (e.g. 1.5).")
    Double paretoShape;

    @Option(names = "--names", split = ",", paramLabel = "NAME",
            description = "Node names for JSON lines and captures (default h1, h2, …); LTTV text always numbers its traces 0 … N−1.")
    List<String> names;

    @Option(names = "--force",
            description = "Write even when DIR holds other files (they are kept, same-named ones replaced) or the"
                    + " output would exceed 1 GB.")
    boolean force;

    /** Above this estimated size, simulate asks for --force. */
    static final double LARGE_BYTES = 1e9;

    @Override
    public Integer call() throws IOException {
        SimulationConfig config = config();
        List<Format> distinct = new ArrayList<>(EnumSet.copyOf(formats));
        if (distinct.contains(Format.ctf) && broadcast > 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--broadcast cannot be written as ctf yet; use text, jsonl or pcap");
        }
        if (distinct.contains(Format.ctf) && steps > 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--steps cannot be written as ctf: LTTng's clock (CLOCK_MONOTONIC) never steps; use text, jsonl or pcap");
        }
        OutputGuard guard = new OutputGuard(List.of());
        guard.directory("simulate -o", output);
        double expected = expectedMessages(config);
        double bytes = 0;
        for (Format f : distinct) {
            bytes += expected * bytesPerMessage(f);
        }
        if (bytes > LARGE_BYTES && !force) {
            throw new CommandFailure(ExitCode.USAGE, String.format(java.util.Locale.ROOT,
                    "simulate would write about %.2e messages, %.1f GB (more than 1 GB); lower --duration or --rate,"
                            + " or add --force", expected, bytes / 1e9));
        }
        if (!force) {
            guard.onlyOwnEntries("simulate -o", output, ownEntries(distinct),
                    "choose a new or empty directory, or add --force");
        }
        StringBuilder summary = new StringBuilder();
        for (Format f : distinct) {
            Path dir = distinct.size() == 1 ? output : output.resolve(f.name());
            Files.createDirectories(dir);
            long messages = switch (f) {
                case text -> writeText(config, dir);
                case jsonl -> writeJsonLines(config, dir);
                case pcap -> writeCaptures(config, dir);
                case ctf -> writeKernelTraces(config, dir);
            };
            summary.append(String.format("wrote %s: %d nodes, %d messages, truth.json%n", dir, nodes, messages));
        }
        spec.commandLine().getOut().print(summary);
        spec.commandLine().getOut().flush();
        return ExitCode.OK;
    }

    /** Messages the simulation will write (expected value): both directions of every link, acks, broadcasts. */
    static double expectedMessages(SimulationConfig c) {
        double seconds = c.duration() / 1e9;
        double unicast = 2.0 * c.links().size() * c.rate() * seconds * (c.acks() ? 2 : 1);
        double perBroadcast = c.nodeCount() == 0 ? 0 : 2.0 * c.links().size() / c.nodeCount(); // mean degree
        return unicast + c.broadcastRate() * c.nodeCount() * seconds * perBroadcast;
    }

    /** Bytes written per message, measured on simulated 4-node meshes (SimulateSafetyTest checks it within 25 %). */
    static double bytesPerMessage(Format f) {
        return switch (f) {
            case text -> 47;
            case jsonl -> 160;
            case pcap -> 320;
            case ctf -> 193;
        };
    }

    /** The entries of DIR that this run writes (others are a user's files). */
    private List<String> ownEntries(List<Format> distinct) {
        if (distinct.size() > 1) {
            return distinct.stream().map(Format::name).toList();
        }
        List<String> nodeNames = names != null ? names : SimulationConfig.names(nodes, "h");
        List<String> own = new ArrayList<>(List.of("truth.json"));
        for (String n : nodeNames) {
            switch (distinct.get(0)) {
                case text -> own.add("messages.txt");
                case jsonl -> own.add(n + ".jsonl");
                case pcap -> own.add(n + ".pcapng");
                case ctf -> own.add(n);
            }
        }
        return own;
    }

    /** The simulation the options describe (node names "0" … "N−1"). */
    SimulationConfig config() {
        CommandLine cl = spec.commandLine();
        if (nodes < 2 || nodes > 10_000) {
            throw new CommandLine.ParameterException(cl, "--nodes must be between 2 and 10000, got " + nodes);
        }
        if (!(rate >= 0) || !(broadcast >= 0) || rate + broadcast <= 0) {
            throw new CommandLine.ParameterException(cl, "--rate and --broadcast must be >= 0, and not both 0");
        }
        if (duration <= 0) {
            throw new CommandLine.ParameterException(cl, "--duration must be > 0");
        }
        if (!(maxDriftPpm >= 0 && maxDriftPpm < 100_000)) {
            throw new CommandLine.ParameterException(cl, "--max-drift must be in [0, 100000) ppm");
        }
        if (names != null && names.size() != nodes) {
            throw new CommandLine.ParameterException(cl, "--names gives " + names.size() + " names for " + nodes + " nodes");
        }
        if (names != null && names.stream().distinct().count() != names.size()) {
            throw new CommandLine.ParameterException(cl, "--names has duplicates");
        }
        Topology top;
        try {
            top = Topology.valueOf(topology.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--topology must be chain, star or mesh, got '" + topology + "'");
        }
        LatencyModel latency = paretoShape == null
                ? new LatencyModel(minLatency, minLatencyBack, LatencyModel.Tail.EXPONENTIAL, tail, 0)
                : new LatencyModel(minLatency, minLatencyBack, LatencyModel.Tail.PARETO, tail, paretoShape);
        // drift changes by 2·delta per ns: delta = (ppm/h · 1e-6) / (3.6e12 ns) / 2
        double maxDelta = maxDriftChange * 1e-6 / 3.6e12 / 2;
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(nodes, null),
                SimulationConfig.DEFAULT_START, seed, maxOffset, maxDriftPpm * 1e-6, maxDelta);
        SimulationConfig c;
        try {
            ClockWander wander = ClockWander.NONE;
            if (walkPpm > 0) {
                wander = wander.withWalk(walkInterval, walkPpm * 1e-6);
            }
            if (ntpPpm > 0) {
                wander = wander.withNtp(ntpInterval, ntpPpm * 1e-6);
            }
            wander = wander.withSlews(slews, slewRatePpm * 1e-6).withSteps(steps, stepSize);
            clocks = wander.apply(clocks, seed, SimulationConfig.DEFAULT_START, duration);
            c = new SimulationConfig(seed, clocks, top.links(nodes, latency), SimulationConfig.DEFAULT_START, duration,
                    rate, false, 0, broadcast, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        return acks ? c.withAcks(20_000) : c;
    }

    private static SimulationConfig renamed(SimulationConfig c, List<String> newNames) {
        List<ClockModel> clocks = new ArrayList<>();
        for (int i = 0; i < c.clocks().size(); i++) {
            ClockModel m = c.clocks().get(i);
            clocks.add(new ClockModel(newNames.get(i), m.t0(), m.alpha(), m.beta(), m.delta(), m.events()));
        }
        return c.withClocks(clocks);
    }

    private String comment(SimulationConfig c) {
        return "simulated by tracesync simulate --nodes " + nodes + " --topology " + topology + " --seed " + seed
                + " (duration " + duration + " ns, rate " + rate + "/s)\ntrue clocks in truth.json";
    }

    private long writeText(SimulationConfig config, Path dir) throws IOException {
        long messages;
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("messages.txt"), StandardCharsets.UTF_8);
             LttvTextWriter text = new LttvTextWriter(w, config.nodeCount(), comment(config))) {
            messages = new ClusterSimulator(config).run(text).messages();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        new TruthFile(config.start(), config.clocks(), messages).write(dir.resolve("truth.json"));
        return messages;
    }

    /** Bytes of each captured packet kept, as {@code tcpdump -s 128} would. */
    private static final int SNAP = 128;

    /**
     * One pcapng capture per node of TCP-like segments (Ethernet, IPv4, TCP; zero payloads cut at
     * {@link #SNAP} bytes), nanosecond timestamps, the node's address declared on its interface.
     */
    private long writeCaptures(SimulationConfig base, Path dir) throws IOException {
        List<String> nodeNames = names != null ? names : SimulationConfig.names(base.nodeCount(), "h");
        SimulationConfig config = renamed(base, nodeNames).withKeys(org.tracesync.core.simulate.KeyKind.TCP);
        PacketBuilder builder = new PacketBuilder().link(LinkTypes.ETHERNET, 0).snapLength(SNAP);
        return simulatePackets(config, dir, builder, i -> {
            PcapngWriter w = new PcapngWriter(dir.resolve(nodeNames.get(i) + ".pcapng"), false);
            w.addInterface(new PcapngWriter.Interface(LinkTypes.ETHERNET, SNAP, "eth0",
                    TimestampResolution.NANOSECONDS, 0, List.of(ClusterSimulator.address(i) + "/16")));
            return w;
        }, (w, event, frame, length) -> w.writePacket(0, event.timestamp(), frame, 0, length, builder.length()));
    }

    /** Opens node i's output. */
    @FunctionalInterface
    private interface NodeOutput<W extends Closeable> {
        W open(int node) throws IOException;
    }

    /** Writes one simulated packet (the first {@code length} bytes of {@code frame}) to a node's output. */
    @FunctionalInterface
    private interface PacketOutput<W extends Closeable> {
        void write(W out, NetEvent event, byte[] frame, int length) throws IOException;
    }

    /**
     * Runs the simulation into one packet-level output per node (captures, kernel traces), closes
     * them, and writes the truth file. Returns the number of messages.
     */
    private static <W extends Closeable> long simulatePackets(SimulationConfig config, Path dir, PacketBuilder builder,
                                                              NodeOutput<W> open, PacketOutput<W> write)
            throws IOException {
        List<W> outputs = new ArrayList<>();
        byte[] frame = new byte[256];
        long messages;
        try {
            for (int i = 0; i < config.nodeCount(); i++) {
                outputs.add(open.open(i));
            }
            messages = new ClusterSimulator(config).run(new SimulationSink() {
                @Override
                public void event(int node, int peer, NetEvent event) {
                    int length = packet(builder, frame, event, node, peer);
                    try {
                        write.write(outputs.get(node), event, frame, length);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }).messages();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            for (W w : outputs) {
                w.close();
            }
        }
        new TruthFile(config.start(), config.clocks(), messages).write(dir.resolve("truth.json"));
        return messages;
    }

    /**
     * The bytes of the packet an event stands for, the same on the sending and the receiving side:
     * a TCP segment (IP id derived from the segment), or, for a broadcast ({@code b<n>} ids), a UDP
     * datagram from the sender to the directed broadcast 10.0.255.255 (IP id and payload from n).
     */
    private static int packet(PacketBuilder builder, byte[] frame, NetEvent event, int node, int peer) {
        if (event.key() instanceof TcpSegmentKey k) {
            builder.addresses(k.source(), k.destination())
                    .tcp(k.sourcePort(), k.destinationPort(), k.seq(), k.ack(), k.flags(), k.payloadLength())
                    .ipId(k.hashCode() & 0xffff);
        } else {
            String id = ((MessageIdKey) event.key()).id();
            long n = Long.parseLong(id.substring(1));
            int sender = event.direction() == Direction.SEND ? node : peer;
            int host = sender + 1;
            builder.addresses(new byte[] {10, 0, (byte) (host >> 8), (byte) host}, new byte[] {10, 0, (byte) 255, (byte) 255})
                    .udp(5353, 9999, 32, (byte) n)
                    .ipId((int) (n & 0xffff));
        }
        return builder.build(frame);
    }

    /**
     * One LTTng-style CTF kernel trace per node, in {@code DIR/<node>/} (hostname = node name):
     * a {@code lttng_statedump_network_interface} event with the node's address, then a
     * {@code net_dev_queue} / {@code net_if_receive_skb} event per segment (IPv4 and TCP headers).
     */
    private long writeKernelTraces(SimulationConfig base, Path dir) throws IOException {
        List<String> nodeNames = names != null ? names : SimulationConfig.names(base.nodeCount(), "h");
        SimulationConfig config = renamed(base, nodeNames).withKeys(org.tracesync.core.simulate.KeyKind.TCP);
        PacketBuilder builder = new PacketBuilder().link(LinkTypes.RAW, 0).snapLength(SNAP);
        long[] skb = {0xffff_8880_0000_0000L};
        return simulatePackets(config, dir, builder, i -> {
            ClockModel clock = config.clocks().get(i);
            long first = clock.local(config.start()) - 1_000;
            // the trace clock counts from one hour before the simulation (a plausible boot time)
            CtfTraceWriter w = new CtfTraceWriter(dir.resolve(nodeNames.get(i)), nodeNames.get(i),
                    first - 3_600_000_000_000L);
            w.networkInterface(0, first, "eth0", new byte[] {10, 0, (byte) ((i + 1) >> 8), (byte) (i + 1)});
            return w;
        }, (w, event, frame, length) -> w.networkPacket(0, event.timestamp(), event.direction() == Direction.SEND,
                "eth0", skb[0] += 256, java.util.Arrays.copyOf(frame, length)));
    }

    private long writeJsonLines(SimulationConfig base, Path dir) throws IOException {
        List<String> nodeNames = names != null ? names : SimulationConfig.names(base.nodeCount(), "h");
        SimulationConfig config = renamed(base, nodeNames);
        List<JsonLinesWriter> writers = new ArrayList<>();
        long messages;
        try {
            for (String n : nodeNames) {
                writers.add(new JsonLinesWriter(Files.newBufferedWriter(dir.resolve(n + ".jsonl"), StandardCharsets.UTF_8), n));
            }
            messages = new ClusterSimulator(config).run(new SimulationSink() {
                @Override
                public void event(int node, int peer, NetEvent event) {
                    try {
                        writers.get(node).write(event.direction(), event.timestamp(),
                                ((MessageIdKey) event.key()).id(), peer < 0 ? null : nodeNames.get(peer));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }).messages();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            for (JsonLinesWriter w : writers) {
                w.close();
            }
        }
        new TruthFile(config.start(), config.clocks(), messages).write(dir.resolve("truth.json"));
        return messages;
    }
}
