package org.tracesync.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small, dependency-free 2-D plot rendered as inline SVG: axes with round ticks, a legend,
 * point clouds, polylines, shaded bands. Coordinates are doubles in the plot's own units (seconds
 * from the trace start, microseconds, ...), never absolute epoch nanoseconds.
 *
 * <p>Output size: O(points); point clouds are one {@code <path>} each (a zero-length segment per
 * point with round caps), so a few thousand points stay a few tens of KB.
 */
final class SvgPlot {

    private record Series(String kind, double[] xs, double[] ys, double[] y2, String color, String label,
                          String dash, String[] texts, String css) {
        Series(String kind, double[] xs, double[] ys, double[] y2, String color, String label, String dash) {
            this(kind, xs, ys, y2, color, label, dash, null, null);
        }
    }

    private static int ids;

    private final int width;
    private final int height;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();
    private double xMin = Double.NaN;
    private double xMax = Double.NaN;
    private double yMin = Double.NaN;
    private double yMax = Double.NaN;

    SvgPlot(int width, int height, String title, String xLabel, String yLabel) {
        this.width = width;
        this.height = height;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** Fixes the x range (else: the data's, padded). */
    SvgPlot xRange(double min, double max) {
        xMin = min;
        xMax = max;
        return this;
    }

    /** Fixes the y range (else: the data's, padded). */
    SvgPlot yRange(double min, double max) {
        yMin = min;
        yMax = max;
        return this;
    }

    SvgPlot points(double[] xs, double[] ys, String color, String label) {
        series.add(new Series("points", xs, ys, null, color, label, null));
        return this;
    }

    SvgPlot line(double[] xs, double[] ys, String color, String label, String dash) {
        series.add(new Series("line", xs, ys, null, color, label, dash));
        return this;
    }

    /** A polyline with a marker on each vertex (hulls: their vertices are message points). */
    SvgPlot vertices(double[] xs, double[] ys, String color, String label) {
        series.add(new Series("vertices", xs, ys, null, color, label, null));
        return this;
    }

    /** A shaded band between {@code lo} and {@code hi} over {@code xs}. */
    SvgPlot band(double[] xs, double[] lo, double[] hi, String color, String label) {
        series.add(new Series("band", xs, lo, hi, color, label, null));
        return this;
    }

    /**
     * Short ticks along the bottom edge at {@code xs} (the knots of a piecewise transform): one
     * path of class {@code css}; they do not widen the plot's ranges.
     */
    SvgPlot rug(double[] xs, String color, String label, String css) {
        series.add(new Series("rug", xs, new double[xs.length], null, color, label, null, null, css));
        return this;
    }

    /**
     * Dashed vertical lines across the plot at {@code xs} (clock steps), each labelled with
     * {@code texts[i]} at the top; elements of class {@code css} and {@code css}-label. They do not
     * widen the plot's ranges.
     */
    SvgPlot markers(double[] xs, String[] texts, String color, String label, String css) {
        series.add(new Series("markers", xs, new double[xs.length], null, color, label, "5,3", texts.clone(), css));
        return this;
    }

    boolean isEmpty() {
        return series.stream().allMatch(s -> s.xs.length == 0);
    }

    String render() {
        double[] xr = range(true);
        double[] yr = range(false);
        int left = 78;
        int right = 16;
        int top = 30;
        long labelled = series.stream().filter(s -> s.label != null).count();
        int perRow = Math.max(1, (width - left) / 200);
        int legendRows = (int) ((labelled + perRow - 1) / perRow);
        int bottom = 46 + 17 * legendRows;
        int pw = width - left - right;
        int ph = height - top - bottom;
        String clip = "clip" + (++ids);
        StringBuilder b = new StringBuilder(4096);
        b.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        b.append("<title>").append(Html.escape(title)).append("</title>\n");
        b.append(String.format(Locale.ROOT, "<defs><clipPath id=\"%s\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/></clipPath></defs>%n",
                clip, left, top, pw, ph));
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#999\"/>%n",
                left, top, pw, ph));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                left, Html.escape(title)));
        // ticks and grid
        Axis xa = axis(xr[0], xr[1]);
        for (int i = 0; i < xa.ticks().length; i++) {
            double t = xa.ticks()[i];
            double px = left + (t - xr[0]) / (xr[1] - xr[0]) * pw;
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    px, top, px, top + ph, px, top + ph + 16, xa.labels()[i]));
        }
        Axis ya = axis(yr[0], yr[1]);
        for (int i = 0; i < ya.ticks().length; i++) {
            double t = ya.ticks()[i];
            double py = top + ph - (t - yr[0]) / (yr[1] - yr[0]) * ph;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    left, py, left + pw, py, left - 6, py + 4, ya.labels()[i]));
        }
        if (yr[0] < 0 && yr[1] > 0) {
            double py = top + ph - (0 - yr[0]) / (yr[1] - yr[0]) * ph;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#bbb\"/>%n",
                    left, py, left + pw, py));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                left + pw / 2, top + ph + 34, Html.escape(xLabel + xa.note())));
        b.append(String.format(Locale.ROOT, "<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
                top + ph / 2, Html.escape(yLabel + ya.note())));
        b.append("<g clip-path=\"url(#").append(clip).append(")\">\n");
        for (Series s : series) {
            if (s.xs.length == 0) {
                continue;
            }
            switch (s.kind) {
                case "rug" -> {
                    StringBuilder d = new StringBuilder();
                    for (double x : s.xs) {
                        d.append('M').append(px(x, xr, left, pw)).append(',').append(top + ph).append("v-9");
                    }
                    b.append("<path class=\"").append(s.css).append("\" d=\"").append(d).append("\" stroke=\"")
                            .append(s.color).append("\" stroke-width=\"1\"/>\n");
                }
                case "markers" -> {
                    for (int i = 0; i < s.xs.length; i++) {
                        String x = px(s.xs[i], xr, left, pw);
                        b.append("<line class=\"").append(s.css).append("\" x1=\"").append(x).append("\" y1=\"").append(top)
                                .append("\" x2=\"").append(x).append("\" y2=\"").append(top + ph).append("\" stroke=\"")
                                .append(s.color).append("\" stroke-width=\"1.5\" stroke-dasharray=\"").append(s.dash)
                                .append("\"/>\n");
                        if (s.texts != null && i < s.texts.length && s.texts[i] != null) {
                            b.append("<text class=\"").append(s.css).append("-label\" x=\"").append(x)
                                    .append("\" dx=\"4\" y=\"").append(top + 13 + 13 * (i % 3)).append("\" font-size=\"11\" fill=\"")
                                    .append(s.color).append("\">").append(Html.escape(s.texts[i])).append("</text>\n");
                        }
                    }
                }
                case "band" -> {
                    StringBuilder d = new StringBuilder();
                    for (int i = 0; i < s.xs.length; i++) {
                        d.append(i == 0 ? 'M' : 'L').append(px(s.xs[i], xr, left, pw)).append(',')
                                .append(py(s.y2[i], yr, top, ph));
                    }
                    for (int i = s.xs.length - 1; i >= 0; i--) {
                        d.append('L').append(px(s.xs[i], xr, left, pw)).append(',').append(py(s.ys[i], yr, top, ph));
                    }
                    b.append("<path d=\"").append(d).append("Z\" fill=\"").append(s.color)
                            .append("\" fill-opacity=\"0.3\" stroke=\"").append(s.color).append("\" stroke-width=\"1\"/>\n");
                }
                case "line", "vertices" -> {
                    StringBuilder d = new StringBuilder();
                    for (int i = 0; i < s.xs.length; i++) {
                        d.append(i == 0 ? 'M' : 'L').append(px(s.xs[i], xr, left, pw)).append(',')
                                .append(py(s.ys[i], yr, top, ph));
                    }
                    b.append("<path d=\"").append(d).append("\" fill=\"none\" stroke=\"").append(s.color)
                            .append("\" stroke-width=\"2\"")
                            .append(s.dash == null ? "" : " stroke-dasharray=\"" + s.dash + "\"").append("/>\n");
                    if (s.kind.equals("vertices") && s.xs.length <= 2000) {
                        StringBuilder m = new StringBuilder();
                        for (int i = 0; i < s.xs.length; i++) {
                            m.append('M').append(px(s.xs[i], xr, left, pw)).append(',').append(py(s.ys[i], yr, top, ph))
                                    .append("h0");
                        }
                        b.append("<path d=\"").append(m).append("\" stroke=\"").append(s.color)
                                .append("\" stroke-width=\"6\" stroke-linecap=\"round\"/>\n");
                    }
                }
                default -> {
                    StringBuilder d = new StringBuilder();
                    for (int i = 0; i < s.xs.length; i++) {
                        d.append('M').append(px(s.xs[i], xr, left, pw)).append(',').append(py(s.ys[i], yr, top, ph))
                                .append("h0");
                    }
                    b.append("<path d=\"").append(d).append("\" stroke=\"").append(s.color)
                            .append("\" stroke-width=\"3.5\" stroke-linecap=\"round\" stroke-opacity=\"0.75\"/>\n");
                }
            }
        }
        b.append("</g>\n");
        // legend: rows of entries under the x label, outside the data area
        int entry = 0;
        for (Series s : series) {
            if (s.label == null) {
                continue;
            }
            int lx = left + (entry % perRow) * 200;
            int ly = top + ph + 54 + (entry / perRow) * 17;
            entry++;
            String swatch = switch (s.kind) {
                case "rug" -> String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1\"/>",
                        lx + 7, ly - 10, lx + 7, ly, s.color);
                case "markers" -> String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"3,2\"/>",
                        lx + 7, ly - 11, lx + 7, ly + 1, s.color);
                case "band" -> String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\" fill-opacity=\"0.3\" stroke=\"%s\"/>",
                        lx, ly - 9, s.color, s.color);
                case "line", "vertices" -> String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>",
                        lx, ly - 4, lx + 14, ly - 4, s.color, s.dash == null ? "" : " stroke-dasharray=\"" + s.dash + "\"");
                default -> String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"3.5\" fill=\"%s\"/>", lx + 7, ly - 4, s.color);
            };
            b.append(swatch).append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 20, ly,
                    Html.escape(s.label)));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static String px(double x, double[] r, int left, int pw) {
        return fmt(left + (x - r[0]) / (r[1] - r[0]) * pw);
    }

    private static String py(double y, double[] r, int top, int ph) {
        return fmt(top + ph - (y - r[0]) / (r[1] - r[0]) * ph);
    }

    private static String fmt(double v) {
        // clamp far-outside values so the SVG stays valid; the clip path hides them
        double c = Math.max(-1e6, Math.min(1e6, v));
        return String.format(Locale.ROOT, "%.1f", c);
    }

    private double[] range(boolean x) {
        double min = x ? xMin : yMin;
        double max = x ? xMax : yMax;
        if (!Double.isNaN(min) && !Double.isNaN(max) && max > min) {
            return new double[] {min, max};
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            if (s.kind.equals("rug") || s.kind.equals("markers")) {
                continue; // annotations: drawn where they fall, never widen the view
            }
            double[][] arrays = x ? new double[][] {s.xs} : (s.y2 == null ? new double[][] {s.ys} : new double[][] {s.ys, s.y2});
            for (double[] a : arrays) {
                for (double v : a) {
                    if (Double.isFinite(v)) {
                        lo = Math.min(lo, v);
                        hi = Math.max(hi, v);
                    }
                }
            }
        }
        if (!(lo <= hi)) {
            return new double[] {0, 1};
        }
        if (hi == lo) {
            double d = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
            return new double[] {lo - d, hi + d};
        }
        double pad = (hi - lo) * 0.05;
        return new double[] {lo - pad, hi + pad};
    }

    /** Round tick values (1, 2, 5 × 10^k steps), about six over the range. */
    static double[] ticks(double min, double max) {
        double span = max - min;
        double raw = span / 6;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = mag;
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * mag >= raw) {
                step = m * mag;
                break;
            }
        }
        double first = Math.ceil(min / step) * step;
        List<Double> out = new ArrayList<>();
        for (double t = first; t <= max + step * 1e-9 && out.size() < 50; t += step) {
            out.add(Math.abs(t) < step * 1e-9 ? 0.0 : t);
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * An axis' ticks and their labels. Labels carry as many decimals as the tick step needs, so
     * that no two read the same; when the values are large against the range (a 5 µs corridor at
     * −1,000,000 µs), ticks are labelled relative to a round base named in {@code note}
     * (", ticks relative to −1000000"): "−1.00e+06" three times says nothing.
     */
    record Axis(double[] ticks, String[] labels, String note) {
    }

    static Axis axis(double min, double max) {
        double[] t = ticks(min, max);
        double step = t.length > 1 ? t[1] - t[0] : Math.max(Math.abs(max - min), 1e-12);
        double mag = Math.max(Math.abs(min), Math.abs(max));
        double base = 0;
        String note = "";
        if (mag / step >= 1e4) {
            double unit = Math.pow(10, Math.ceil(Math.log10(step * 10)));
            base = Math.round((min + max) / 2 / unit) * unit;
            note = ", ticks relative to " + plain(base);
        }
        int decimals = (int) Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
        boolean scientific = note.isEmpty() && (mag >= 1e6 || mag < 1e-3);
        // enough significant digits to tell ticks one step apart
        int digits = (int) Math.max(3, Math.floor(Math.log10(Math.max(mag, step) / step)) + 2);
        String[] labels = new String[t.length];
        for (int i = 0; i < t.length; i++) {
            double v = t[i] - base;
            if (Math.abs(v) < step * 1e-6) {
                v = 0;
            }
            labels[i] = scientific ? String.format(Locale.ROOT, "%." + (digits - 1) + "e", v)
                    : (!note.isEmpty() && v > 0 ? "+" : "") + String.format(Locale.ROOT, "%." + Math.min(decimals, 12) + "f", v);
        }
        return new Axis(t, labels, note);
    }

    private static String plain(double v) {
        return new java.math.BigDecimal(v).setScale(0, java.math.RoundingMode.HALF_EVEN).toPlainString().equals("-0")
                ? "0" : java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
