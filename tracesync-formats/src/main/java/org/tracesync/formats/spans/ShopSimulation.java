package org.tracesync.formats.spans;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tracesync.core.simulate.ClockModel;

/**
 * A simulated shop for tests and benchmarks: services on hosts with skewed, drifting clocks, RPC
 * (CLIENT → SERVER) and async messaging (PRODUCER → CONSUMER). Each trace: the frontend serves a
 * request, calls {@code cart}, then {@code checkout}, which calls {@code payment} and publishes an
 * event that {@code email} consumes later. One-way network latencies are 80 µs plus an exponential
 * tail (mean 120 µs); queueing before a consumer 100 µs plus an exponential tail (mean 2 ms); a
 * fraction of client calls time out (the client span ends before its server's). Spans are
 * generated in true time, then read on each host's clock ({@link ClockModel#local}) and truncated
 * to the resolution (1 ns or 1 µs). Deterministic for a seed. O(spans) time, one trace in memory.
 *
 * <p>Hosts are named by address ({@code 10.0.1.N}) in every format, so one truth file serves all.
 */
public final class ShopSimulation {

    /** The five services and the host index each runs on (5 services on 4 hosts; cart and email share one). */
    public static final List<String> SERVICES = List.of("frontend", "cart", "checkout", "payment", "email");
    private static final int[] HOST_OF = {0, 1, 2, 3, 1};
    public static final int HOSTS = 4;

    /**
     * @param seed        random seed
     * @param t0          true time of the first trace (ns)
     * @param gap         mean true time between traces (ns)
     * @param resolution  timestamp resolution of the files (1 or 1000 ns)
     * @param timeoutRate fraction of calls whose client gives up before the server ends
     * @param maxOffset   clock offsets are uniform in ±maxOffset (ns); host 0 is exact
     * @param maxDrift    clock drifts are uniform in ±maxDrift (e.g. 50e-6)
     */
    public record Config(long seed, long t0, long gap, long resolution, double timeoutRate, long maxOffset,
                         double maxDrift) {
        public static Config defaults(long seed) {
            return new Config(seed, 1_700_000_000_000_000_000L, 2_000_000L, 1000, 0.02, 5_000_000L, 50e-6);
        }

        public Config withResolution(long r) {
            return new Config(seed, t0, gap, r, timeoutRate, maxOffset, maxDrift);
        }

        public Config withGap(long g) {
            return new Config(seed, t0, g, resolution, timeoutRate, maxOffset, maxDrift);
        }
    }

    private final Config config;
    private final SplittableRandom random;
    private final List<ClockModel> clocks = new ArrayList<>();
    private long trace;
    private final List<SimulatedSpan> spans = new ArrayList<>();
    private long traceHi;
    private long traceLo;

    public ShopSimulation(Config config) {
        if (config.resolution() != 1 && config.resolution() != 1000) {
            throw new IllegalArgumentException("resolution must be 1 or 1000 ns");
        }
        this.config = config;
        this.random = new SplittableRandom(config.seed());
        for (int h = 0; h < HOSTS; h++) {
            long alpha = h == 0 ? 0 : Math.round((random.nextDouble() * 2 - 1) * config.maxOffset());
            double beta = h == 0 ? 0 : (random.nextDouble() * 2 - 1) * config.maxDrift();
            clocks.add(new ClockModel(hostName(h), config.t0(), alpha, beta, 0.0));
        }
    }

    /**
     * This shop with host {@code host}'s clock stepped by {@code step} ns (negative: back) at true
     * time {@code at}, as CLOCK_REALTIME steps (DESIGN §6). Call before the first trace.
     */
    public ShopSimulation withStep(int host, long at, long step) {
        clocks.set(host, clocks.get(host).withEvents(List.of(org.tracesync.core.simulate.ClockEvent.step(at, step))));
        return this;
    }

    public static String hostName(int host) {
        return "10.0.1." + (host + 1);
    }

    public static int hostOf(int service) {
        return HOST_OF[service];
    }

    /** True clocks, one per host, in host order (origin {@code t0}). */
    public List<ClockModel> clocks() {
        return List.copyOf(clocks);
    }

    public Config config() {
        return config;
    }

    /** The spans of the next trace (in the order a tracer would finish them: children first). */
    public List<SimulatedSpan> nextTrace() {
        spans.clear();
        traceHi = random.nextLong();
        traceLo = random.nextLong();
        long start = config.t0() + trace * config.gap() + (long) (random.nextDouble() * config.gap() / 2);
        trace++;
        long root = id();
        long t = start + micros(20);
        t = call(root, 0, 1, "GET /cart", t, micros(300), false) + micros(30);
        t = call(root, 0, 2, "POST /checkout", t, micros(800), true) + micros(30);
        span(root, 0, 0, SpanKind.SERVER, "GET /", start, t);
        return List.copyOf(spans);
    }

    /** A CLIENT span on {@code from} calling a SERVER on {@code to}; returns the client end (true time). */
    private long call(long parent, int from, int to, String name, long clientStart, long work, boolean checkout) {
        long clientId = id();
        long serverId = id();
        long serverStart = clientStart + latency();
        long t = serverStart + micros(10) + exp(work / 4.0);
        if (checkout) {
            t = call(serverId, to, 3, "charge", t, micros(400), false) + micros(20);
            long produceStart = t;
            long produceEnd = t + micros(15) + exp(micros(10));
            span(produceId(serverId, produceStart, produceEnd), serverId, to, SpanKind.PRODUCER, "send order-placed",
                    produceStart, produceEnd);
            t = produceEnd + micros(10);
        }
        long serverEnd = t + exp(work / 2.0) + micros(5);
        long clientEnd = serverEnd + latency();
        if (random.nextDouble() < config.timeoutRate()) {
            clientEnd = clientStart + (serverEnd - serverStart) / 2; // the client gave up first
        }
        span(serverId, clientId, to, SpanKind.SERVER, name, serverStart, serverEnd);
        span(clientId, parent, from, SpanKind.CLIENT, name, clientStart, clientEnd);
        return clientEnd;
    }

    /** Adds the consumer of a produced message and returns the producer's id. */
    private long produceId(long parent, long produceStart, long produceEnd) {
        long producerId = id();
        long consumeStart = produceStart + micros(100) + exp(2_000_000);
        long consumeEnd = consumeStart + micros(50) + exp(micros(300));
        span(id(), producerId, 4, SpanKind.CONSUMER, "receive order-placed", consumeStart, consumeEnd);
        return producerId;
    }

    private void span(long id, long parent, int service, SpanKind kind, String name, long trueStart, long trueEnd) {
        ClockModel c = clocks.get(HOST_OF[service]);
        long s = quantize(c.local(trueStart));
        long e = Math.max(s, quantize(c.local(trueEnd)));
        spans.add(new SimulatedSpan(traceHi, traceLo, id, parent, kind, service, name, s, e));
    }

    private long quantize(long t) {
        return Math.floorDiv(t, config.resolution()) * config.resolution();
    }

    private long latency() {
        return micros(80) + exp(micros(120));
    }

    private long exp(double mean) {
        return (long) (-mean * Math.log(1 - random.nextDouble()));
    }

    private static long micros(long us) {
        return us * 1000;
    }

    private long id() {
        long v;
        do {
            v = random.nextLong();
        } while (v == 0);
        return v;
    }
}
