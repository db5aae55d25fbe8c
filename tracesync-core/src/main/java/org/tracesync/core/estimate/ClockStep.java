package org.tracesync.core.estimate;

/**
 * A discontinuity found in one pair's clock relation (DESIGN §6): at a-time {@code at} the offset
 * of b relative to a jumps by {@code size} ns (positive: b's clock jumped ahead of a's, or a's
 * back). The pair alone cannot tell which of the two clocks stepped.
 *
 * @param at       a-time where the transform is cut (ns)
 * @param earliest the step happened after this a-time (the last message consistent with before)
 * @param latest   … and before this one (the first message consistent with after)
 * @param size     estimated jump of b − a (ns): the two pieces' difference at {@code at}
 * @param sizeMin  smallest jump the two pieces' bounds allow (ns; NaN without bounds)
 * @param sizeMax  largest jump they allow (ns; NaN without bounds)
 */
public record ClockStep(long at, long earliest, long latest, double size, double sizeMin, double sizeMax) {
}
