package org.tracesync.core.simulate;

/**
 * A change of a simulated clock at a true instant (DESIGN §6): a rate change (NTP or chrony
 * correcting the frequency, the start or end of a slew, a temperature change) or a step (NTP
 * {@code step}, chrony {@code makestep}, {@code date -s}).
 *
 * @param at   true time of the change (ns)
 * @param rate rate added from {@code at} on (dimensionless: +500e−6 is a 500 ppm slew)
 * @param step offset added from {@code at} on (ns; negative: the clock jumps back)
 */
public record ClockEvent(long at, double rate, long step) {

    public ClockEvent {
        if (!Double.isFinite(rate) || Math.abs(rate) >= 0.5) {
            throw new IllegalArgumentException("clock event at " + at + ": rate change must be finite and below 0.5");
        }
    }

    public static ClockEvent rateChange(long at, double rate) {
        return new ClockEvent(at, rate, 0);
    }

    public static ClockEvent step(long at, long step) {
        return new ClockEvent(at, 0.0, step);
    }

    public boolean isStep() {
        return step != 0;
    }
}
