package org.tracesync.formats.result;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.formats.SharedData;
import org.tracesync.formats.lttv.LttvTextInput;

/**
 * {@link ResultFile#write} (our {@link IndentedJson}) writes byte for byte what Jackson's generator
 * with its default pretty printer wrote ({@link JacksonResultWriter}, the writer as it was): on
 * seeded random results that have every section (steps and pieces, either-side times, regression, repairs, every
 * quality, stats of every value type, empty lists), names and notes with quotes, backslashes,
 * control characters, non-ASCII, paired and lone surrogates, and extreme numbers; and on the
 * results of the shared data's LTTV traces with both estimators.
 */
class ResultFileBytesTest {

    static LongStream seeds() {
        return LongStream.range(0, 300).map(i -> 0x5EED_0000L + i);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void randomResultsAreWrittenAsJacksonWroteThem(long seed) throws Exception {
        SyncResult r = randomResult(new SplittableRandom(seed));
        assertSameBytes(r);
    }

    /**
     * Nodes with a long trace's bound rows: from {@link ResultFile#PARALLEL_ROWS} rows on, the later
     * half's doubles are formatted on a second thread, and the bytes stay Jackson's (NaN and ±∞ as
     * null, every other double as {@link Double#toString}).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3})
    void longBoundsAreWrittenAsJacksonWroteThem(long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<NodeResult> ns = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            NodeResult n = randomNode(rnd, "node" + i);
            int m = ResultFile.PARALLEL_ROWS + rnd.nextInt(0, 3 * ResultFile.PARALLEL_ROWS);
            List<BoundRow> rows = new ArrayList<>(m);
            long bt = rnd.nextLong(Long.MIN_VALUE / 2, 0);
            for (int k = 0; k < m; k++) {
                bt += rnd.nextLong(1, Long.MAX_VALUE / 8 / m);
                rows.add(new BoundRow(bt, extremeDouble(rnd), extremeDouble(rnd)));
            }
            ns.add(new NodeResult(n.name(), n.source(), n.reference(), n.quality(), n.transform(),
                    NodeBounds.ofRows(rows), n.path(), n.start(), n.end(), n.note()));
        }
        SyncResult r = new SyncResult("node0", ns, List.of(), new LinkedHashMap<>(), List.of(), new LinkedHashMap<>());
        assertThat(r.nodes().get(1).bounds().rows().size()).isGreaterThanOrEqualTo(ResultFile.PARALLEL_ROWS);
        assertSameBytes(r);
    }

    static Stream<Arguments> sharedTraces() {
        List<Arguments> a = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            for (Synchronizer.Estimator e : Synchronizer.Estimator.values()) {
                a.add(Arguments.of("lttv-text/test" + i + ".txt", e));
            }
        }
        a.add(Arguments.of("pcap/three-hosts/messages.txt", Synchronizer.Estimator.values()[0]));
        return a.stream();
    }

    @ParameterizedTest
    @MethodSource("sharedTraces")
    void sharedDataResultsAreWrittenAsJacksonWroteThem(String trace, Synchronizer.Estimator estimator) throws Exception {
        SyncResult r = Synchronizer.synchronize(LttvTextInput.open(SharedData.file(trace)),
                Synchronizer.Options.defaults().withEstimator(estimator)).result();
        assertSameBytes(r);
    }

    private static void assertSameBytes(SyncResult r) throws Exception {
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        ResultFile.write(r, ours);
        ByteArrayOutputStream jackson = new ByteArrayOutputStream();
        JacksonResultWriter.write(r, jackson);
        // compared as text first for a readable difference, then byte for byte
        assertThat(ours.toString(StandardCharsets.ISO_8859_1)).isEqualTo(jackson.toString(StandardCharsets.ISO_8859_1));
        assertThat(ours.toByteArray()).isEqualTo(jackson.toByteArray());
    }

    // ------------------------------------------------------------------ random results

    private static SyncResult randomResult(SplittableRandom rnd) {
        int nodes = rnd.nextInt(0, 5);
        List<NodeResult> ns = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            String name = text(rnd) + i;
            names.add(name);
            ns.add(randomNode(rnd, name));
        }
        List<PairResult> ps = new ArrayList<>();
        for (int i = 0, n = rnd.nextInt(0, 5); i < n; i++) {
            ps.add(randomPair(rnd));
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        for (int i = 0, n = rnd.nextInt(0, 8); i < n; i++) {
            Object v = switch (rnd.nextInt(9)) {
                case 0 -> rnd.nextInt();
                case 1 -> extremeLong(rnd);
                case 2 -> (short) rnd.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1);
                case 3 -> extremeDouble(rnd);
                case 4 -> (float) extremeDouble(rnd);
                case 5 -> rnd.nextBoolean();
                case 6 -> null;
                case 7 -> List.of(text(rnd), 3); // written with toString()
                default -> text(rnd);
            };
            stats.put(text(rnd) + "#" + i, v);
        }
        List<String> warnings = new ArrayList<>();
        for (int i = 0, n = rnd.nextInt(0, 4); i < n; i++) {
            warnings.add(text(rnd));
        }
        Map<String, long[][]> repairs = new LinkedHashMap<>();
        if (rnd.nextInt(3) == 0) {
            for (int i = 0, n = rnd.nextInt(1, 4); i < n; i++) {
                long[][] moves = new long[rnd.nextInt(0, 4)][];
                for (int k = 0; k < moves.length; k++) {
                    moves[k] = rnd.nextBoolean() ? new long[] {extremeLong(rnd), extremeLong(rnd), extremeLong(rnd)}
                            : new long[] {extremeLong(rnd), extremeLong(rnd)}; // as written before the reading was listed
                }
                repairs.put(text(rnd) + "@" + i, moves);
            }
        }
        String reference = rnd.nextInt(10) == 0 ? null : names.isEmpty() ? text(rnd) : names.get(0);
        return new SyncResult(reference, ns, ps, stats, warnings, repairs);
    }

    private static NodeResult randomNode(SplittableRandom rnd, String name) {
        int pieces = rnd.nextInt(1, 4);
        List<LinearSegment> segs = new ArrayList<>();
        long t = rnd.nextLong(-1L << 62, 1L << 62);
        Long from = rnd.nextBoolean() ? null : t;
        for (int k = 0; k < pieces; k++) {
            t += rnd.nextLong(1, 1L << 40);
            Long to = k == pieces - 1 && rnd.nextBoolean() ? null : t;
            Long eitherFrom = null;
            Long eitherTo = null;
            if (k > 0 && rnd.nextBoolean()) { // a step's either-side times
                eitherFrom = rnd.nextBoolean() ? extremeLong(rnd) : from - rnd.nextLong(0, 1000);
                eitherTo = rnd.nextBoolean() ? extremeLong(rnd) : from + rnd.nextLong(1, 1000);
            }
            segs.add(new LinearSegment(from, to, extremeLong(rnd), extremeDouble(rnd), extremeDouble(rnd),
                    eitherFrom, eitherTo));
            from = to;
        }
        List<BoundRow> rows = new ArrayList<>();
        long bt = rnd.nextLong(Long.MIN_VALUE / 2, 0);
        for (int k = 0, n = rnd.nextInt(0, 6); k < n; k++) {
            bt += rnd.nextLong(1, Long.MAX_VALUE / 8);
            rows.add(new BoundRow(bt, extremeDouble(rnd), extremeDouble(rnd)));
        }
        List<String> path = new ArrayList<>();
        for (int k = 0, n = rnd.nextInt(0, 4); k < n; k++) {
            path.add(text(rnd));
        }
        return new NodeResult(name, nullableText(rnd), nullableText(rnd), quality(rnd), new ClockTransform(segs),
                NodeBounds.ofRows(rows), path, extremeLong(rnd), extremeLong(rnd), nullableText(rnd));
    }

    private static PairResult randomPair(SplittableRandom rnd) {
        List<ClockStep> steps = new ArrayList<>();
        int pieces = rnd.nextInt(4) == 0 ? rnd.nextInt(-1, 5) : 1;
        if (rnd.nextInt(3) == 0) {
            for (int k = 0, n = rnd.nextInt(0, 4); k < n; k++) {
                steps.add(new ClockStep(extremeLong(rnd), extremeLong(rnd), extremeLong(rnd), extremeDouble(rnd),
                        extremeDouble(rnd), extremeDouble(rnd)));
            }
        }
        RegressionStatistics reg = rnd.nextBoolean() ? null : new RegressionStatistics(nullableText(rnd),
                rnd.nextInt(), rnd.nextInt(), rnd.nextInt(4) == 0 ? extremeDouble(rnd) : 0.95, extremeDouble(rnd),
                extremeDouble(rnd), extremeDouble(rnd), extremeDouble(rnd), extremeDouble(rnd));
        return new PairResult(text(rnd), text(rnd), quality(rnd), extremeLong(rnd), extremeLong(rnd), rnd.nextInt(),
                rnd.nextInt(), extremeDouble(rnd), extremeDouble(rnd), extremeDouble(rnd), extremeDouble(rnd),
                extremeLong(rnd), extremeDouble(rnd), rnd.nextInt(), extremeDouble(rnd), nullableText(rnd), pieces,
                steps, reg);
    }

    private static Quality quality(SplittableRandom rnd) {
        Quality[] all = Quality.values();
        return all[rnd.nextInt(all.length)];
    }

    private static String nullableText(SplittableRandom rnd) {
        return rnd.nextInt(12) == 0 ? null : text(rnd);
    }

    /** Node names, notes, paths: ASCII, quotes, backslashes, every control character, non-ASCII, surrogates. */
    private static String text(SplittableRandom rnd) {
        StringBuilder s = new StringBuilder();
        for (int i = 0, n = rnd.nextInt(0, 12); i < n; i++) {
            switch (rnd.nextInt(10)) {
                case 0 -> s.append((char) rnd.nextInt(0, 0x20));
                case 1 -> s.append(rnd.nextBoolean() ? '"' : '\\');
                case 2 -> s.append((char) rnd.nextInt(0x7F, 0x800));
                case 3 -> s.append((char) rnd.nextInt(0x800, 0xD800));
                case 4 -> s.appendCodePoint(rnd.nextInt(0x10000, 0x110000)); // a surrogate pair
                case 5 -> s.append((char) rnd.nextInt(0xD800, 0xE000)); // a lone surrogate
                case 6 -> s.append((char) rnd.nextInt(0xE000, 0x10000));
                case 7 -> s.append("/é\u2028 ");
                default -> s.append((char) rnd.nextInt(0x20, 0x7F));
            }
        }
        return s.toString();
    }

    private static long extremeLong(SplittableRandom rnd) {
        return switch (rnd.nextInt(6)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> 0;
            case 3 -> rnd.nextLong(-1000, 1000);
            default -> rnd.nextLong();
        };
    }

    private static double extremeDouble(SplittableRandom rnd) {
        return switch (rnd.nextInt(14)) {
            case 0 -> Double.NaN;
            case 1 -> rnd.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            case 2 -> rnd.nextBoolean() ? 0.0 : -0.0;
            case 3 -> rnd.nextBoolean() ? Double.MIN_VALUE : -Double.MAX_VALUE;
            case 4 -> Double.MAX_VALUE;
            case 5 -> Double.longBitsToDouble(rnd.nextLong()); // any bit pattern, NaN payloads too
            case 6 -> 1e-3 * rnd.nextInt(-1_000_000, 1_000_000); // 1.0E-3 and 1.0E7 boundaries
            case 7 -> (double) rnd.nextLong(); // large integral values: 9.2E18
            case 8 -> rnd.nextDouble() * 1e-9;
            default -> (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(-20, 25));
        };
    }
}
