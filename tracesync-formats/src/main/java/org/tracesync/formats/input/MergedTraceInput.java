package org.tracesync.formats.input;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.BroadcastMatcher;
import org.tracesync.core.matching.BroadcastSink;
import org.tracesync.core.matching.CoarseClockOffsets;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.matching.TcpMatcher;
import org.tracesync.core.model.ExchangeSink;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;

/**
 * Event traces of any formats (captures, CTF, JSON lines, mixed), one per node, read as matched
 * messages: the one matching pipeline (DESIGN §1 stages 1 and 2 in one streaming pass). The traces
 * are read simultaneously and merged by time ({@link MergedEventReader}); every key goes to one
 * bounded {@link TcpMatcher} (window W, retransmissions and duplicates dropped and counted,
 * exchanges, a key limit), every broadcast datagram to a {@link BroadcastMatcher}.
 *
 * <p><b>Clocks farther apart than the window.</b> When the traces' first events are more than
 * W/4 apart, before the pass, a sample of the first {@value #SAMPLE_EVENTS} events of every
 * trace is matched regardless of time
 * ({@link CoarseClockOffsets}); when it shows two clocks more than W/4 apart, the merge and the
 * window work in coarsely corrected time (local time minus the node's offset) and the messages
 * are handed on with their local times unchanged. Otherwise nothing is shifted and the pass is
 * exactly the uncorrected one.
 *
 * <p><b>Threads.</b> With {@link InputOptions#readerThread()} the traces are read, merged and
 * decoded on a second thread that hands blocks of events to this one, which matches them
 * ({@link BlockHandover}); the messages, their order and every count are those of the
 * single-threaded pass, and the sinks are called from the calling thread only.
 *
 * <p>Cost: O(log k) per event for k traces plus the matchers' O(1); memory: the cursors' buffers,
 * four blocks of {@value EventBlock#DEFAULT_CAPACITY} events, the matchers' windows (at most
 * {@link InputOptions#maxKeys()} keys), the sample (at most {@value #SAMPLE_KEYS} keys).
 */
public final class MergedTraceInput implements MessageInput {

    /** Blocks in flight between the reading thread and the matching one. */
    private static final int HANDOVER_BLOCKS = 4;
    /** Events of each trace read for the coarse clock offsets. */
    public static final int SAMPLE_EVENTS = 1 << 16;
    /** Keys the coarse-offset sample holds at most. */
    public static final int SAMPLE_KEYS = 1 << 16;

    private final List<EventTrace> traces;
    private final List<NodeInfo> nodes;
    private final InputOptions options;
    private final List<String> warnings = new ArrayList<>();
    private long[] offsets;
    private String offsetNote;
    /** Whether the sample pass ran (the traces' first events were more than W/4 apart). */
    private boolean sampled;
    private RoundTripMinima roundTrips;
    private ReadStats stats;
    private volatile MergedEventReader reading;
    /** Per node, {first, last} event time of the last full pass (null entries: no event). */
    private long[][] eventSpans;

    /** Counts of the last pass. */
    public record ReadStats(long events, long keyEvents, long otherEvents, long broadcastDatagrams,
                            long backwardTimestamps, long messages, long ambiguous, long retransmissions,
                            long duplicateEvents, long sameNode, long evictedUnmatched, long unmatchedAtEnd,
                            long exchanges, int peakKeys, long limitEvictions, long limitUnmatched,
                            long broadcastGroups) {
    }

    public MergedTraceInput(List<EventTrace> traces, InputOptions options) {
        this.traces = List.copyOf(traces);
        this.options = options;
        List<NodeInfo> list = new ArrayList<>();
        for (EventTrace t : traces) {
            list.add(t.node());
        }
        this.nodes = List.copyOf(list);
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        read(sink, null);
    }

    /**
     * Messages and the TCP matcher's exchanges (a data segment and the acknowledgement that covers
     * it), at local times, widened like the messages (see {@link #widenedByResolution}). True when
     * the traces had TCP segments with addresses (keys that can form exchanges), even if no
     * exchange was found; false for application message ids and segments without addresses.
     */
    @Override
    public boolean readMessages(MessageSink sink, ExchangeSink exchanges) throws IOException {
        return read(sink, null, exchanges) > 0;
    }

    /**
     * The sink, or — when some trace's timestamps are coarser than 1 ns (µs captures) — a sink
     * that widens each message by the two traces' resolutions r: the send r_s earlier, the
     * receive r_r later. A timestamp t stands for an instant in (t − r, t + r), so the true times
     * always satisfy the widened constraint, and the bounds stay strict (DESIGN §2, §3).
     */
    private MessageSink widenedByResolution(MessageSink sink) throws IOException {
        long[] res = widening();
        if (res == null) {
            return sink;
        }
        return (s, r, ts, tr) -> sink.message(s, r, ts - res[s], tr + res[r]);
    }

    /** Per trace, its timestamp resolution when some trace is coarser than 1 ns (the widening), else null. */
    private long[] widening() throws IOException {
        long[] res = new long[traces.size()];
        boolean coarse = false;
        for (int i = 0; i < res.length; i++) {
            res[i] = traces.get(i).timestampResolution();
            coarse |= res[i] > 1;
        }
        return coarse ? res : null;
    }

    /** Round-trip minima from the exchanges of the last pass (null before any pass). */
    public RoundTripMinima roundTrips() {
        return roundTrips;
    }

    public ReadStats stats() {
        return stats;
    }

    /**
     * Per node (input order), the {first, last} local event times of the last full pass — the
     * trace's own span, which its messages may cover only in part; null before a pass, null
     * entries for traces without events.
     */
    public long[][] eventSpans() {
        if (eventSpans == null) {
            return null;
        }
        long[][] copy = new long[eventSpans.length][];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = eventSpans[i] == null ? null : eventSpans[i].clone();
        }
        return copy;
    }

    /** The coarse clock offsets applied (ns per node, all 0 when none was needed); null before a pass. */
    public long[] coarseOffsets() {
        return offsets == null ? null : offsets.clone();
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** Events read so far by the current pass (for progress displays; any thread). */
    public long eventsRead() {
        MergedEventReader r = reading;
        return r == null ? 0 : r.eventsRead;
    }

    /** Bytes read so far by the current pass, or -1 when a trace cannot tell (any thread). */
    public long bytesRead() {
        MergedEventReader r = reading;
        return r == null ? 0 : r.bytesRead();
    }

    /** One pass: messages into {@code sink}, broadcast groups into {@code broadcasts} (nullable). */
    public void read(MessageSink messages, BroadcastSink broadcasts) throws IOException {
        read(messages, broadcasts, null);
    }

    /**
     * One pass as {@link #read(MessageSink, BroadcastSink)}, and exchanges into {@code exchanges}
     * (nullable); returns the number of TCP segments with addresses the matcher saw.
     */
    private long read(MessageSink messages, BroadcastSink broadcasts, ExchangeSink exchanges) throws IOException {
        int k = traces.size();
        MessageSink sink = widenedByResolution(messages);
        AddressTable addresses = addressTable(nodes);
        if (offsets == null) {
            offsets = options.coarseOffsets() && k > 1 && firstTimesSpread(addresses) > options.window() / 4
                    ? coarseOffsets(addresses) : new long[k];
        }
        long[] off = offsets;
        boolean shifted = false;
        for (long o : off) {
            shifted |= o != 0;
        }
        long[] perNode = new long[k];
        MessageSink out = !shifted
                ? (s, r, ts, tr) -> {
                    perNode[s]++;
                    perNode[r]++;
                    sink.message(s, r, ts, tr);
                }
                : (s, r, ts, tr) -> {
                    perNode[s]++;
                    perNode[r]++;
                    sink.message(s, r, ts + off[s], tr + off[r]);
                };
        BroadcastSink bs = broadcasts == null ? (s, t, r, rt) -> { } : broadcasts;
        if (shifted && broadcasts != null) {
            bs = (s, t, r, rt) -> {
                long[] local = new long[rt.length];
                for (int i = 0; i < rt.length; i++) {
                    local[i] = rt[i] + off[r[i]];
                }
                broadcasts.broadcast(s, s >= 0 ? t + off[s] : t, r, local);
            };
        }
        TcpMatcher tcp = new TcpMatcher(k, options.window(), options.maxKeys(), out);
        if (exchanges != null) {
            // local times (the coarse offsets put back), each message widened as the messages are
            long[] widths = widening();
            long[] res = widths == null ? new long[k] : widths;
            tcp.exchangesTo((a, b, t1, t2, t3, t4) -> exchanges.exchange(a, b, t1 + off[a] - res[a],
                    t2 + off[b] + res[b], t3 + off[b] - res[b], t4 + off[a] + res[a]));
        }
        BroadcastMatcher bcast = new BroadcastMatcher(options.window(), bs);
        warnings.clear();
        MergedEventReader in = new MergedEventReader(traces, addresses, off, Long.MAX_VALUE);
        reading = in;
        try (in) {
            try {
                if (options.readerThread()) {
                    BlockHandover.threaded(in::fill, block -> tcp.match(block, bcast), HANDOVER_BLOCKS,
                            EventBlock.DEFAULT_CAPACITY);
                } else {
                    BlockHandover.inline(in::fill, block -> tcp.match(block, bcast), EventBlock.DEFAULT_CAPACITY);
                }
            } catch (InternalError e) { // a faulting load raised past fill's return (see MergedEventReader.fill)
                throw in.inputFault(e);
            }
            tcp.finish();
            bcast.finish();
            warnings.addAll(in.warnings());
        }
        roundTrips = tcp.roundTrips();
        eventSpans = new long[k][];
        for (int i = 0; i < k; i++) {
            eventSpans[i] = in.span(i);
        }
        stats = new ReadStats(in.events, in.keyEvents, in.otherEvents, in.broadcastDatagrams, in.backwardTimestamps,
                tcp.matched(), tcp.ambiguous(), tcp.retransmissions(), tcp.duplicateEvents(), tcp.sameNode(),
                tcp.evictedUnmatched(), tcp.unmatchedAtEnd(), tcp.exchanges(), tcp.peakKeys(), tcp.limitEvictions(),
                tcp.limitUnmatched(), bcast.groups());
        if (offsetNote != null) {
            warnings.add(offsetNote);
        }
        if (tcp.ambiguous() + tcp.duplicateEvents() + tcp.sameNode() + tcp.evictedUnmatched()
                + tcp.limitEvictions() + tcp.exchanges() > 0) {
            // the counts, when matching dropped or found more than plain one-to-one messages
            warnings.add(tcp.summary());
        }
        if (in.backwardTimestamps > 0) {
            warnings.add(in.backwardTimestamps + " events whose timestamp goes backwards within their trace");
        }
        if (in.broadcastDatagrams > 0) {
            warnings.add("broadcast: " + in.broadcastDatagrams + " datagrams, " + bcast.groups()
                    + " groups seen by several hosts, " + bcast.ambiguous() + " ambiguous");
        }
        List<String> alone = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            if (perNode[i] == 0) {
                alone.add(nodes.get(i).name());
            }
        }
        if (!alone.isEmpty() && tcp.evictedUnmatched() > 0 && k > 1) {
            warnings.add(String.join(", ", alone) + ": no message matched while " + tcp.evictedUnmatched()
                    + " keys aged out of the " + seconds(options.window()) + " s window unmatched. If the clocks"
                    + " are farther apart than the window ("
                    + (sampled ? "the first " + SAMPLE_EVENTS + " events of each trace had too few keys in common"
                            + " to find the offset" : "the traces start within " + seconds(options.window() / 4)
                            + " s of each other, so no offset was looked for")
                    + "), raise --match-window above their difference.");
        }
        return tcp.tcpSegments();
    }

    /** Every node's own addresses, owned by the node (its index). */
    static AddressTable addressTable(List<NodeInfo> nodes) {
        AddressTable table = new AddressTable();
        for (int i = 0; i < nodes.size(); i++) {
            for (String a : nodes.get(i).addresses()) {
                table.add(a, i);
            }
        }
        return table;
    }

    /**
     * How far apart the traces' first events are (ns): the cheap sign that clocks may be far apart
     * (recordings started together on clocks hours apart start hours apart), which alone pays for
     * the sample pass. Recordings started at times that cancel their clocks' difference escape it:
     * the warnings then name the cause and the option.
     */
    private long firstTimesSpread(AddressTable addresses) throws IOException {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < traces.size(); i++) {
            try (org.tracesync.formats.EventCursor c = traces.get(i).cursor(i, addresses)) {
                if (c.advance()) {
                    min = Math.min(min, c.time());
                    max = Math.max(max, c.time());
                }
            }
        }
        long spread = max - min;
        return max < min ? 0 : spread < 0 ? Long.MAX_VALUE : spread; // saturate: JSON-lines times span int64
    }

    /**
     * The sample pass: the first {@value #SAMPLE_EVENTS} events of each trace, matched regardless
     * of time; offsets when some pair's exceeds W/4, else zeros.
     */
    private long[] coarseOffsets(AddressTable addresses) throws IOException {
        int k = traces.size();
        sampled = true;
        CoarseClockOffsets sample = new CoarseClockOffsets(k, SAMPLE_KEYS);
        try (MergedEventReader in = new MergedEventReader(traces, addresses, new long[k], SAMPLE_EVENTS)) {
            EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
            boolean more;
            try {
                do {
                    block.clear();
                    more = in.fill(block);
                    sample.add(block);
                } while (more);
            } catch (InternalError e) { // as in read
                throw in.inputFault(e);
            }
        }
        CoarseClockOffsets.Estimate e = sample.estimate();
        if (!e.exceeds(options.window() / 4)) {
            return new long[k];
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            parts.add(nodes.get(i).name() + " " + signedSeconds(e.offsets()[i]));
        }
        offsetNote = "clocks up to " + seconds(e.largest()) + " s apart (from keys common to the first "
                + SAMPLE_EVENTS + " events of each trace): matched in coarsely corrected time, offsets "
                + String.join(", ", parts);
        return e.offsets();
    }

    private static String seconds(long ns) {
        return java.math.BigDecimal.valueOf(ns, 9).setScale(3, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros()
                .toPlainString();
    }

    private static String signedSeconds(long ns) {
        return (ns >= 0 ? "+" : "-") + seconds(Math.abs(ns)) + " s";
    }
}
