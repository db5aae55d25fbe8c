package org.tracesync.formats.lttv;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import org.tracesync.core.model.MessageSink;

/**
 * Writes the LTTV text format (DESIGN §8), the original implementation's test format: optional
 * {@code #} comment lines, the trace count N on the first significant line, then one line per
 * message, {@code sender receiver send_seconds recv_seconds} (tab-separated, senders and receivers
 * as trace numbers 0 … N−1, times as decimal seconds with exactly nine fraction digits, so the ns
 * value is exact). O(1) per message; wrap {@code out} in a {@link java.io.BufferedWriter}.
 *
 * <p>As a {@link MessageSink} it cannot throw checked exceptions: write errors surface as
 * {@link UncheckedIOException} carrying the original {@link IOException}.
 */
public final class LttvTextWriter implements MessageSink, Closeable {

    private final Writer out;
    private final int traceCount;

    /** Writes the comment lines (may be empty) and the trace count. */
    public LttvTextWriter(Writer out, int traceCount, String... comments) throws IOException {
        if (traceCount < 1) {
            throw new IllegalArgumentException("trace count must be >= 1");
        }
        this.out = out;
        this.traceCount = traceCount;
        for (String c : comments) {
            for (String line : c.split("\n", -1)) {
                out.write("# " + line + "\n");
            }
        }
        out.write(traceCount + "\n");
    }

    @Override
    public void message(int sender, int receiver, long sendTime, long recvTime) {
        if (sender < 0 || sender >= traceCount || receiver < 0 || receiver >= traceCount) {
            throw new IllegalArgumentException("trace number out of 0.." + (traceCount - 1) + ": " + sender
                    + " -> " + receiver);
        }
        try {
            out.write(Integer.toString(sender));
            out.write('\t');
            out.write(Integer.toString(receiver));
            out.write('\t');
            out.write(seconds(sendTime));
            out.write('\t');
            out.write(seconds(recvTime));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code ns} as decimal seconds with exactly nine fraction digits (exact). */
    public static String seconds(long ns) {
        long s = Math.floorDiv(ns, 1_000_000_000L);
        long f = Math.floorMod(ns, 1_000_000_000L);
        String frac = Long.toString(f);
        StringBuilder b = new StringBuilder(32);
        if (s < 0 && f != 0) {
            // -0.5 s = floorDiv −1, floorMod 5e8: write as −(|ns|) for readability
            long abs = -ns;
            return "-" + seconds(abs);
        }
        b.append(s).append('.');
        for (int i = frac.length(); i < 9; i++) {
            b.append('0');
        }
        return b.append(frac).toString();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
