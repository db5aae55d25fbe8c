package org.tracesync.core.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * How simulated clocks wander over a long trace (DESIGN §6, issue "long traces"): the
 * {@link ClockEvent}s added to each clock, drawn from a seed so equal settings give equal clocks.
 *
 * <ul>
 *   <li><b>walk</b>: a frequency random walk — every {@code walkInterval} ns the rate changes by a
 *       normal draw of standard deviation {@code walkStep} (a crystal following temperature).</li>
 *   <li><b>ntp</b>: NTP-like rate corrections — every {@code ntpInterval} ns (ntpd polls every
 *       64–1024 s) the rate changes by a uniform draw in ±{@code ntpCorrection}: kinks.</li>
 *   <li><b>slews</b>: {@code slews} slews per clock at {@code slewRate} (ntpd slews at most 500
 *       ppm), each lasting 0.5–4 s, at random instants.</li>
 *   <li><b>steps</b>: {@code steps} steps over the cluster, on random nodes other than the first,
 *       of 1 ms up to {@code stepSize} either way, at random instants in the middle 80 % of the
 *       trace, at least 10 % of the trace apart.</li>
 * </ul>
 * Rates are dimensionless (1e−6 = 1 ppm), times ns. Cost: O(events) to draw.
 */
public record ClockWander(boolean walk, long walkInterval, double walkStep,
                          boolean ntp, long ntpInterval, double ntpCorrection,
                          int slews, double slewRate, int steps, long stepSize) {

    /** No wander: clocks keep their plain model. */
    public static final ClockWander NONE = new ClockWander(false, 10_000_000_000L, 0.01e-6,
            false, 1_024_000_000_000L, 1e-6, 0, 500e-6, 0, 5_000_000L);

    public ClockWander {
        if (walkInterval <= 0 || ntpInterval <= 0 || slews < 0 || steps < 0 || stepSize < 1_000_000
                || !(Math.abs(slewRate) < 0.01) || !(walkStep >= 0) || !(ntpCorrection >= 0)) {
            throw new IllegalArgumentException("clock wander: intervals > 0, counts >= 0, step size >= 1 ms, "
                    + "slew rate below 10000 ppm");
        }
    }

    public boolean isNone() {
        return !walk && !ntp && slews == 0 && steps == 0;
    }

    public ClockWander withWalk(long interval, double step) {
        return new ClockWander(true, interval, step, ntp, ntpInterval, ntpCorrection, slews, slewRate, steps, stepSize);
    }

    public ClockWander withNtp(long interval, double correction) {
        return new ClockWander(walk, walkInterval, walkStep, true, interval, correction, slews, slewRate, steps, stepSize);
    }

    public ClockWander withSlews(int count, double rate) {
        return new ClockWander(walk, walkInterval, walkStep, ntp, ntpInterval, ntpCorrection, count, rate, steps, stepSize);
    }

    public ClockWander withSteps(int count, long size) {
        return new ClockWander(walk, walkInterval, walkStep, ntp, ntpInterval, ntpCorrection, slews, slewRate, count, size);
    }

    /** The clocks with their events added, for traffic in [start, start + duration). */
    public List<ClockModel> apply(List<ClockModel> clocks, long seed, long start, long duration) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + 17);
        List<List<ClockEvent>> events = new ArrayList<>();
        for (int i = 0; i < clocks.size(); i++) {
            List<ClockEvent> e = new ArrayList<>();
            if (walk) {
                for (long t = start + walkInterval; t < start + duration; t += walkInterval) {
                    e.add(ClockEvent.rateChange(t, r.nextGaussian() * walkStep));
                }
            }
            if (ntp) {
                // each clock polls with its own phase
                long phase = (long) (r.nextDouble() * ntpInterval);
                for (long t = start + phase; t < start + duration; t += ntpInterval) {
                    e.add(ClockEvent.rateChange(t, (2 * r.nextDouble() - 1) * ntpCorrection));
                }
            }
            for (int k = 0; k < slews; k++) {
                long at = start + (long) ((0.05 + 0.9 * r.nextDouble()) * duration);
                long length = 500_000_000L + (long) (r.nextDouble() * 3_500_000_000L);
                double rate = r.nextBoolean() ? slewRate : -slewRate;
                e.add(ClockEvent.rateChange(at, rate));
                e.add(ClockEvent.rateChange(at + length, -rate));
            }
            events.add(e);
        }
        if (steps > 0 && clocks.size() > 1) {
            List<Long> times = new ArrayList<>();
            for (int k = 0; k < steps; k++) {
                long at = start + (long) ((0.1 + 0.8 * (k + r.nextDouble() * 0.5) / steps) * duration);
                times.add(at);
                int node = 1 + r.nextInt(clocks.size() - 1);
                long size = 1_000_000L + (long) (r.nextDouble() * (stepSize - 1_000_000L));
                events.get(node).add(ClockEvent.step(at, r.nextBoolean() ? size : -size));
            }
        }
        List<ClockModel> out = new ArrayList<>();
        for (int i = 0; i < clocks.size(); i++) {
            out.add(clocks.get(i).withEvents(events.get(i)));
        }
        return out;
    }
}
