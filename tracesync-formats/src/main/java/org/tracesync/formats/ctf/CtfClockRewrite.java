package org.tracesync.formats.ctf;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfMetadata.ClockClass;

/**
 * Writes a synchronized copy of a CTF trace by rewriting only its metadata clock ({@code freq},
 * {@code offset_s}, {@code offset}); stream files are copied untouched, so babeltrace2 and Trace
 * Compass show the synchronized time.
 *
 * <p>A linear transform {@code ref(t) = t + K + d·(t − g)} has slope {@code 1 + d}; a clock maps
 * cycles c to {@code offset_s·10⁹ + (offset + c)·10⁹/freq}, so the new frequency is
 * {@code freq' = round(freq / (1 + d))} (an integer: the slope is approximated) and the offset is
 * chosen so that the rewritten time equals {@code ref(t)} at the middle of the trace, {@code t_m}.
 * The remaining error at local time t is at most
 * {@code |t − t_m|·(1+d)·|freq/(freq'·(1+d)) − 1| + 10⁹/(2·freq') + 10⁹/freq + 1} ns (slope rounding,
 * the integer offset, the decoders' flooring; {@link #errorBound}): it grows with the distance from
 * mid-trace, not with the uptime; at 1 GHz about 0.5 ns per second from mid-trace, plus 2.5 ns. All computations are exact (BigDecimal with
 * 40 digits on the absolute values). Piecewise transforms need every timestamp rewritten and are
 * refused.
 */
public final class CtfClockRewrite {

    /**
     * What was written.
     *
     * @param errorBoundNs bound on |rewritten time − ref(t)| over the trace's time range, ns
     */
    public record Outcome(Path output, String clock, long freq, long offsetSeconds, long offset, long middle,
                          double errorBoundNs) {
    }

    private CtfClockRewrite() {
    }

    /** A new clock for the transform, exact at local time {@code middle} (ns). */
    public record NewClock(long freq, long offsetSeconds, long offset, double slopeError) {
    }

    static NewClock newClock(ClockClass c, ClockTransform transform, long middle) {
        LinearSegment s = transform.linearSegment();
        MathContext mc = new MathContext(40, RoundingMode.HALF_EVEN);
        BigDecimal onePlusD = BigDecimal.ONE.add(new BigDecimal(s.drift()), mc);
        BigDecimal f = BigDecimal.valueOf(c.freq());
        long freq2 = f.divide(onePlusD, mc).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
        if (freq2 <= 0) {
            throw new IllegalArgumentException("transform drift " + s.drift() + " gives no positive clock frequency");
        }
        // cycles of the original clock at local time `middle`: c_m = (middle − offset_s·1e9)·freq/1e9 − offset
        BigDecimal nsPerS = BigDecimal.valueOf(1_000_000_000L);
        BigDecimal cm = BigDecimal.valueOf(middle).subtract(BigDecimal.valueOf(c.offsetSeconds()).multiply(nsPerS))
                .multiply(f).divide(nsPerS, mc).subtract(BigDecimal.valueOf(c.offset()));
        // target: ref(middle) = middle + K + d·(middle − g)
        BigDecimal target = BigDecimal.valueOf(middle).add(new BigDecimal(s.offset()))
                .add(new BigDecimal(s.drift()).multiply(BigDecimal.valueOf(middle - s.origin())), mc);
        // total cycles of the new clock since its origin at the middle: target·freq'/1e9; minus c_m
        BigDecimal q = target.multiply(BigDecimal.valueOf(freq2)).divide(nsPerS, mc).subtract(cm);
        BigInteger qi = q.setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
        BigInteger[] sr = qi.divideAndRemainder(BigInteger.valueOf(freq2));
        BigInteger sec = sr[0];
        BigInteger rem = sr[1];
        if (rem.signum() < 0) {
            rem = rem.add(BigInteger.valueOf(freq2));
            sec = sec.subtract(BigInteger.ONE);
        }
        // relative slope error of the rewritten clock: (freq/freq') / (1 + d) − 1
        double slopeError = f.divide(BigDecimal.valueOf(freq2), mc).divide(onePlusD, mc).subtract(BigDecimal.ONE).doubleValue();
        return new NewClock(freq2, sec.longValueExact(), rem.longValueExact(), slopeError);
    }

    /**
     * Bound on |rewritten time − ref(t)| at {@code distance} ns from mid-trace: slope rounding
     * ({@code distance·(1+d)·|slopeError|}), plus half a cycle of the new clock (integer offset), one
     * cycle of the original clock and 1 ns (the decoders floor cycles to ns).
     */
    public static double errorBound(long originalFreq, NewClock nc, double drift, long distance) {
        return (double) distance * (1 + drift) * Math.abs(nc.slopeError()) + 0.5e9 / nc.freq() + 1e9 / originalFreq + 1.0;
    }

    /**
     * Writes the synchronized copy of {@code trace} into {@code out} (created; must not hold a trace).
     *
     * @param first first local timestamp of the trace (ns)
     * @param last  last local timestamp of the trace (ns)
     */
    public static Outcome write(CtfTrace trace, ClockTransform transform, long first, long last, Path out)
            throws IOException {
        return write(trace, transform, first, last, out, "");
    }

    /**
     * As {@link #write(CtfTrace, ClockTransform, long, long, Path)}, adding {@code uncertainty} (e.g.
     * the synchronization's bounds at the trace's ends) to the clock comment, next to the rounding
     * error, so that a reader of the metadata does not take one for the other.
     */
    public static Outcome write(CtfTrace trace, ClockTransform transform, long first, long last, Path out,
                                String uncertainty) throws IOException {
        if (!transform.isLinear()) {
            throw new IllegalArgumentException("the transform of " + trace.nodeName() + " is piecewise ("
                    + transform.segments().size() + " segments): a CTF clock can only express a linear"
                    + " transform; rewriting every timestamp is not implemented yet");
        }
        CtfMetadata meta = trace.metadata();
        if (meta.clocks().size() != 1) {
            throw new TraceFormatException(trace.directory().resolve("metadata"), "",
                    "expected exactly one clock to rewrite, found " + meta.clocks().size());
        }
        ClockClass c = meta.clocks().get(0);
        long middle = first + (last - first) / 2;
        NewClock nc = newClock(c, transform, middle);
        double bound = errorBound(c.freq(), nc, transform.linearSegment().drift(), Math.max(middle - first, last - middle));

        Files.createDirectories(out);
        if (Files.exists(out.resolve("metadata"))) {
            throw new IOException(out + " already holds a trace");
        }
        Path dir = trace.directory();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path rel = dir.relativize(p);
                if (rel.toString().isEmpty() || rel.toString().equals("metadata")) {
                    continue;
                }
                Path target = out.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                    target.toFile().setWritable(true);
                }
            }
        }
        String text = CtfMetadataFile.readText(dir.resolve("metadata"));
        String rewritten = rewriteClock(text, c.name(), nc, transform, middle, bound, uncertainty);
        Files.writeString(out.resolve("metadata"), rewritten, StandardCharsets.UTF_8);
        return new Outcome(out, c.name(), nc.freq(), nc.offsetSeconds(), nc.offset(), middle, bound);
    }

    private static final Pattern CLOCK_BLOCK = Pattern.compile("clock\\s*\\{(.*?)\\}\\s*;", Pattern.DOTALL);

    static String rewriteClock(String text, String clockName, NewClock nc, ClockTransform t, long middle, double bound) {
        return rewriteClock(text, clockName, nc, t, middle, bound, "");
    }

    static String rewriteClock(String text, String clockName, NewClock nc, ClockTransform t, long middle, double bound,
                               String uncertainty) {
        Matcher m = CLOCK_BLOCK.matcher(text);
        StringBuilder sb = new StringBuilder();
        boolean done = false;
        while (m.find()) {
            String body = m.group(1);
            if (!done && Pattern.compile("name\\s*=\\s*\"?" + Pattern.quote(clockName) + "\"?\\s*;").matcher(body).find()) {
                String b = body.replaceAll("(?m)^\\s*(freq|offset_s|offset)\\s*=[^;]*;[^\\n]*\\n?", "");
                b = b.replaceAll("/\\*[^*]*clock value offset from Epoch[^*]*\\*/\\s*\\n?", "");
                LinearSegment s = t.linearSegment();
                String add = "\n\t/* tracesync apply: synchronized clock; transform t + " + s.offset() + " + "
                        + s.drift() + " * (t - " + s.origin() + "), exact at " + middle
                        + String.format(java.util.Locale.ROOT, ", clock rounding error at most %.1f ns over the trace"
                                + " (this freq and offset against the transform)", bound)
                        + (uncertainty.isEmpty() ? "" : "; " + uncertainty.replace("*/", "* /")) + " */\n"
                        + "\tfreq = " + nc.freq() + ";\n\toffset_s = " + nc.offsetSeconds() + ";\n\toffset = "
                        + nc.offset() + ";\n";
                m.appendReplacement(sb, Matcher.quoteReplacement("clock {" + add + b.stripTrailing().replaceFirst("^\\n", "")
                        + "\n};"));
                done = true;
            }
        }
        m.appendTail(sb);
        String r = sb.toString();
        if (!r.startsWith("/* CTF 1.8")) {
            r = "/* CTF 1.8 */\n" + r;
        }
        return r;
    }
}
