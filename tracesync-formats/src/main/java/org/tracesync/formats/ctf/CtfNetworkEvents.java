package org.tracesync.formats.ctf;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.model.NetEventSink;

/**
 * Turns LTTng network events into {@link NetEvent}s (DESIGN §8), as a {@link CtfEventHandler}.
 *
 * <ul>
 * <li><b>lttng-modules ≥ 2.9</b>: {@code net_dev_queue} (send), {@code net_if_receive_skb} /
 * {@code netif_receive_skb} (receive) with {@code network_header} → {@code ipv4}|{@code ipv6} →
 * {@code transport_header} → {@code tcp}|{@code udp}. Both the 2.9 layout (transport header at the
 * top level, TCP only, 16-bit {@code flags} word holding data offset and flags) and the later one
 * (transport header inside the IP header, {@code data_offset}, 9-bit {@code flags}, UDP) are read.
 * TCP key: addresses, ports, seq, ack, the 9 flag bits (NS…FIN), payload length = IP length − IP
 * header − TCP header. UDP datagrams use the same key type with {@code flags = -1},
 * {@code seq} = IPv4 identification (−1 for IPv6), {@code ack} = UDP checksum, payload length =
 * UDP length − 8.</li>
 * <li><b>add-on module</b>: {@code inet_sock_local_out} (send) / {@code inet_sock_local_in}
 * (receive): seq, ack_seq, flags only (addresses null, ports and length −1). On little-endian hosts
 * the flags come out byte-swapped; both sides agree, so keys still match.</li>
 * </ul>
 *
 * <p>Own addresses come from {@code lttng_statedump_network_interface}. Cost per event: one field
 * read of the event class; events that are not network events allocate nothing. A network event
 * is first read into one reused {@link Segment} (primitive fields, addresses as 128-bit numbers):
 * the matching pipeline's cursor takes it from there without allocating
 * ({@link #toSegments}); a {@link NetEventSink} gets a {@link NetEvent} built from it.
 */
public final class CtfNetworkEvents implements CtfEventHandler {

    /** Network layout of a trace. */
    public enum Layout { NONE, HEADERS, ADDON }

    /**
     * What was found.
     *
     * @param unparsed   network events with headers this reader could not use (not IP, not TCP/UDP)
     * @param headerless {@code net_dev_queue}/{@code netif_receive_skb} events without IP headers
     *                   (lttng-modules before 2.9): not matchable
     */
    public record Summary(long sends, long receives, long unparsed, long headerless, Layout layout,
                          List<String> addresses) {
        public Summary {
            addresses = List.copyOf(addresses);
        }

        /** A warning when the trace has no usable network event, else null. */
        public String noEventsWarning() {
            if (sends + receives > 0) {
                return null;
            }
            if (headerless > 0) {
                return headerless + " net_dev_queue/netif_receive_skb events carry no IP headers (lttng-modules"
                        + " before 2.9): nothing to match; record with lttng-modules >= 2.9";
            }
            return "no network send/receive events (enable net_dev_queue, net_if_receive_skb and"
                    + " netif_receive_skb in the kernel session)";
        }

        public String layoutDescription() {
            return switch (layout) {
                case HEADERS -> "lttng-modules >= 2.9 net_dev_queue / net_if_receive_skb with IP + TCP/UDP headers";
                case ADDON -> "add-on module inet_sock_local_out / inet_sock_local_in (seq, ack_seq, flags)";
                case NONE -> "none (no network events carrying headers)";
            };
        }
    }

    private static final Object NOT_NETWORK = new Object();
    private static final Object HEADERLESS = new Object();

    private final SegmentSink sink;
    private final Segment segment = new Segment();
    private final Set<String> addresses = new LinkedHashSet<>();
    private long sends;
    private long receives;
    private long unparsed;
    private long headerless;
    private Layout layout = Layout.NONE;

    /**
     * Thrown by a handler made by {@link #untilStatedumpEnd()} at the first
     * {@code lttng_statedump_end}: the read is over (no stack trace; one instance).
     */
    public static final class StatedumpEnd extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final StatedumpEnd INSTANCE = new StatedumpEnd();

        private StatedumpEnd() {
            super("end of the statedump", null, false, false);
        }
    }

    private static final Object STATEDUMP_END = new Object();
    private boolean stopAtStatedumpEnd;

    /**
     * A handler that collects the own addresses of the statedump and stops the read at its end
     * ({@link StatedumpEnd}), instead of decoding the whole trace for them: LTTng records the
     * statedump once, when the session starts, so every {@code lttng_statedump_network_interface}
     * of it precedes its {@code lttng_statedump_end} in the merged time order. A trace without
     * that event is read to its end. Addresses of a later statedump (after {@code lttng
     * regenerate statedump}) are not seen.
     */
    public static CtfNetworkEvents untilStatedumpEnd() {
        CtfNetworkEvents net = toSegments(s -> { });
        net.stopAtStatedumpEnd = true;
        return net;
    }

    public CtfNetworkEvents(NetEventSink sink) {
        this.sink = s -> sink.event(new NetEvent(s.direction, s.timestamp, s.key()));
    }

    private CtfNetworkEvents(SegmentSink sink) {
        this.sink = sink;
    }

    /** A handler that hands each network event to {@code sink} as the one reused {@link Segment}. */
    static CtfNetworkEvents toSegments(SegmentSink sink) {
        return new CtfNetworkEvents(sink);
    }

    /** Receives network events as the reused {@link Segment}, valid during the call only. */
    @FunctionalInterface
    interface SegmentSink {
        void segment(Segment s);
    }

    /**
     * One network event's match fields, overwritten by the next event. Addresses are 128-bit
     * numbers (hi, lo) as {@link org.tracesync.formats.AddressTable} keys them — IPv4 as
     * ::ffff:a.b.c.d — with their length in bytes: 4, 16, 0 for the add-on events (no addresses),
     * or another length kept as read ({@code oddSource}, {@code oddDestination}), which no address
     * table accepts.
     */
    static final class Segment {
        Direction direction;
        long timestamp;
        int sourceLength;
        long sourceHi;
        long sourceLo;
        byte[] oddSource;
        int destinationLength;
        long destinationHi;
        long destinationLo;
        byte[] oddDestination;
        int sourcePort;
        int destinationPort;
        long seq;
        long ack;
        int flags;
        int payloadLength;

        /** The key a {@link NetEvent} carries (DESIGN §1), as this class built it before segments. */
        TcpSegmentKey key() {
            return new TcpSegmentKey(bytes(sourceLength, sourceHi, sourceLo, oddSource),
                    bytes(destinationLength, destinationHi, destinationLo, oddDestination), sourcePort, destinationPort,
                    seq, ack, flags, payloadLength);
        }

        private static byte[] bytes(int length, long hi, long lo, byte[] odd) {
            if (length == 0) {
                return null;
            }
            if (length != 4 && length != 16) {
                return odd;
            }
            byte[] b = new byte[length];
            for (int i = 0; i < length; i++) {
                int k = length - 1 - i; // byte k from the end
                b[i] = (byte) (k < 8 ? lo >>> (8 * k) : hi >>> (8 * (k - 8)));
            }
            return b;
        }

        /** Reads an address field: its length and value, without a copy when it is 4 or 16 bytes. */
        void address(CtfEvent e, CtfFieldRef f, boolean source) {
            int n = e.byteLength(f);
            long hi = 0;
            long lo = 0;
            byte[] odd = null;
            if (n == 4) {
                lo = 0xffff_0000_0000L | e.bigEndianBytes(f, 0, 4);
            } else if (n == 16) {
                hi = e.bigEndianBytes(f, 0, 8);
                lo = e.bigEndianBytes(f, 8, 8);
            } else {
                odd = e.bytes(f);
            }
            if (source) {
                sourceLength = n;
                sourceHi = hi;
                sourceLo = lo;
                oddSource = odd;
            } else {
                destinationLength = n;
                destinationHi = hi;
                destinationLo = lo;
                oddDestination = odd;
            }
        }
    }

    public Summary summary() {
        return new Summary(sends, receives, unparsed, headerless, layout, new ArrayList<>(addresses));
    }

    @Override
    public void event(CtfEvent e) {
        CtfEventClass ec = e.eventClass();
        Object l = ec.networkLayout;
        if (l == null) {
            l = resolve(ec);
            ec.networkLayout = l;
        }
        if (l == NOT_NETWORK) {
            return;
        }
        if (l == STATEDUMP_END) {
            if (stopAtStatedumpEnd) {
                throw StatedumpEnd.INSTANCE;
            }
            return;
        }
        if (l == HEADERLESS) {
            headerless++;
            return;
        }
        if (l instanceof Headers h) {
            h.emit(e);
        } else if (l instanceof Addon a) {
            a.emit(e);
        } else if (l instanceof Statedump s) {
            s.read(e);
        }
    }

    /**
     * The slots of {@code ec}'s fields this handler reads (empty for events it ignores), for a
     * reader that decodes nothing else ({@link CtfStreamReader#readOnly}).
     */
    java.util.BitSet slotsRead(CtfEventClass ec) {
        Object l = ec.networkLayout;
        if (l == null) {
            l = resolve(ec);
            ec.networkLayout = l;
        }
        java.util.BitSet s = new java.util.BitSet();
        if (l instanceof Headers h) {
            add(s, h.nhType);
            for (Ip ip : new Ip[] {h.v4, h.v6}) {
                if (ip != null) {
                    add(s, ip.saddr(), ip.daddr(), ip.length(), ip.ihl(), ip.ipId(), ip.thType());
                    for (Transport t : new Transport[] {ip.tcp(), ip.udp()}) {
                        if (t != null) {
                            add(s, t.sport(), t.dport(), t.seq(), t.ack(), t.dataOffset(), t.flags(), t.udpLength(),
                                    t.udpCheck());
                        }
                    }
                }
            }
        } else if (l instanceof Addon a) {
            add(s, a.seq(), a.ack(), a.flags());
        } else if (l instanceof Statedump d) {
            add(s, d.ipv4());
        }
        return s;
    }

    private static void add(java.util.BitSet s, CtfFieldRef... refs) {
        for (CtfFieldRef r : refs) {
            if (r != null && r.slot() >= 0) {
                s.set(r.slot());
            }
        }
    }

    private Object resolve(CtfEventClass ec) {
        String n = ec.name();
        switch (n) {
            case "net_dev_queue", "net_if_receive_skb", "netif_receive_skb" -> {
                Headers h = Headers.of(ec, n.equals("net_dev_queue") ? Direction.SEND : Direction.RECEIVE, this);
                return h == null ? HEADERLESS : h;
            }
            case "inet_sock_local_out", "inet_sock_local_in" -> {
                CtfFieldRef seq = ec.field("seq");
                CtfFieldRef ack = ec.field("ack_seq");
                CtfFieldRef flags = ec.field("flags");
                if (seq == null || ack == null || flags == null) {
                    return NOT_NETWORK;
                }
                return new Addon(n.endsWith("out") ? Direction.SEND : Direction.RECEIVE, seq, ack, flags, this);
            }
            case "lttng_statedump_end" -> {
                return STATEDUMP_END;
            }
            case "lttng_statedump_network_interface" -> {
                CtfFieldRef a4 = ec.field("address_ipv4");
                return a4 == null ? NOT_NETWORK : new Statedump(a4, this);
            }
            default -> {
                return NOT_NETWORK;
            }
        }
    }

    private record Statedump(CtfFieldRef ipv4, CtfNetworkEvents owner) {
        void read(CtfEvent e) {
            long v = e.longValue(ipv4);
            if (v != 0) {
                owner.addresses.add(((v >>> 24) & 0xFF) + "." + ((v >>> 16) & 0xFF) + "." + ((v >>> 8) & 0xFF)
                        + "." + (v & 0xFF));
            }
        }
    }

    private record Addon(Direction dir, CtfFieldRef seq, CtfFieldRef ack, CtfFieldRef flags, CtfNetworkEvents owner) {
        void emit(CtfEvent e) {
            Segment s = owner.segment;
            s.direction = dir;
            s.timestamp = e.timestamp();
            s.sourceLength = 0;
            s.destinationLength = 0;
            s.sourcePort = -1;
            s.destinationPort = -1;
            s.seq = e.longValue(seq);
            s.ack = e.longValue(ack);
            s.flags = (int) e.longValue(flags);
            s.payloadLength = -1;
            owner.layout = Layout.ADDON;
            owner.count(dir);
            owner.sink.segment(s);
        }
    }

    private void count(Direction d) {
        if (d == Direction.SEND) {
            sends++;
        } else {
            receives++;
        }
    }

    /** Resolved fields of one transport header inside one IP version (null when absent). */
    private record Transport(CtfFieldRef sport, CtfFieldRef dport, CtfFieldRef seq, CtfFieldRef ack,
                             CtfFieldRef dataOffset, CtfFieldRef flags, CtfFieldRef udpLength, CtfFieldRef udpCheck) {

        static Transport of(CtfEventClass ec, String t) {
            CtfFieldRef sport = first(ec, t + "source_port", t + "source");
            CtfFieldRef dport = first(ec, t + "dest_port", t + "dest");
            if (sport == null || dport == null) {
                return null;
            }
            return new Transport(sport, dport, ec.field(t + "seq"), ec.field(t + "ack_seq"), ec.field(t + "data_offset"),
                    ec.field(t + "flags"), ec.field(t + "len"), first(ec, t + "check", t + "checksum"));
        }

        private static CtfFieldRef first(CtfEventClass ec, String a, String b) {
            CtfFieldRef r = ec.field(a);
            return r != null ? r : ec.field(b);
        }
    }

    /** Resolved fields of one IP version, with its transport headers. */
    private static final class Ip {
        static final int OTHER = 0;
        static final int TCP = 1;
        static final int UDP = 2;

        private final boolean v4;
        private final CtfFieldRef saddr;
        private final CtfFieldRef daddr;
        private final CtfFieldRef length;
        private final CtfFieldRef ihl;
        private final CtfFieldRef ipId;
        private final CtfFieldRef thType;
        private final Transport tcp;
        private final Transport udp;
        /** The last transport-header type value seen and what it selects (labels compared once per value). */
        private long thValue;
        private int thKind;
        private boolean thKnown;

        Ip(boolean v4, CtfFieldRef saddr, CtfFieldRef daddr, CtfFieldRef length, CtfFieldRef ihl, CtfFieldRef ipId,
           CtfFieldRef thType, Transport tcp, Transport udp) {
            this.v4 = v4;
            this.saddr = saddr;
            this.daddr = daddr;
            this.length = length;
            this.ihl = ihl;
            this.ipId = ipId;
            this.thType = thType;
            this.tcp = tcp;
            this.udp = udp;
        }

        boolean v4() {
            return v4;
        }

        CtfFieldRef saddr() {
            return saddr;
        }

        CtfFieldRef daddr() {
            return daddr;
        }

        CtfFieldRef length() {
            return length;
        }

        CtfFieldRef ihl() {
            return ihl;
        }

        CtfFieldRef ipId() {
            return ipId;
        }

        CtfFieldRef thType() {
            return thType;
        }

        Transport tcp() {
            return tcp;
        }

        Transport udp() {
            return udp;
        }

        /** {@link #TCP}, {@link #UDP} or {@link #OTHER}, by the transport header type's label. */
        int transportOf(CtfEvent e) {
            long v = e.longValue(thType);
            if (!thKnown || v != thValue) {
                String th = e.enumLabel(thType);
                thKind = "_tcp".equals(th) || "tcp".equals(th) ? TCP : "_udp".equals(th) || "udp".equals(th) ? UDP : OTHER;
                thValue = v;
                thKnown = true;
            }
            return thKind;
        }
    }

    private static final class Headers {
        final Direction dir;
        final CtfNetworkEvents owner;
        final CtfFieldRef nhType;
        final Ip v4;
        final Ip v6;

        Headers(Direction dir, CtfNetworkEvents owner, CtfFieldRef nhType, Ip v4, Ip v6) {
            this.dir = dir;
            this.owner = owner;
            this.nhType = nhType;
            this.v4 = v4;
            this.v6 = v6;
        }

        static Headers of(CtfEventClass ec, Direction dir, CtfNetworkEvents owner) {
            CtfFieldRef nh = ec.field("network_header_type");
            if (nh == null) {
                return null;
            }
            Ip v4 = ip(ec, true, "network_header.ipv4", "tot_len");
            Ip v6 = ip(ec, false, "network_header.ipv6", "payload_len");
            if (v4 == null && v6 == null) {
                return null;
            }
            return new Headers(dir, owner, nh, v4, v6);
        }

        private static Ip ip(CtfEventClass ec, boolean v4, String p, String lengthName) {
            CtfFieldRef s = ec.field(p + ".saddr");
            CtfFieldRef d = ec.field(p + ".daddr");
            CtfFieldRef len = ec.field(p + "." + lengthName);
            if (s == null || d == null || len == null) {
                return null;
            }
            CtfFieldRef th = ec.field(p + ".transport_header_type");
            String prefix = p + ".transport_header.";
            if (th == null) {
                th = ec.field("transport_header_type");
                prefix = "transport_header.";
            }
            return new Ip(v4, s, d, len, ec.field(p + ".ihl"), ec.field(p + ".id"), th,
                    Transport.of(ec, prefix + "tcp."), Transport.of(ec, prefix + "udp."));
        }

        /** The last network-header type value seen and the IP version it selects (labels compared once per value). */
        private long nhValue;
        private Ip nhIp;
        private boolean nhKnown;

        private Ip ipOf(CtfEvent e) {
            long v = e.longValue(nhType);
            if (!nhKnown || v != nhValue) {
                String nh = e.enumLabel(nhType);
                nhIp = "_ipv4".equals(nh) || "ipv4".equals(nh) ? v4 : "_ipv6".equals(nh) || "ipv6".equals(nh) ? v6 : null;
                nhValue = v;
                nhKnown = true;
            }
            return nhIp;
        }

        void emit(CtfEvent e) {
            Ip ip = ipOf(e);
            if (ip == null || ip.thType() == null) {
                owner.unparsed++;
                return;
            }
            int th = ip.transportOf(e);
            boolean tcp = th == Ip.TCP;
            Transport t = tcp ? ip.tcp() : th == Ip.UDP ? ip.udp() : null;
            if (t == null || (tcp && (t.seq() == null || t.ack() == null || t.flags() == null))) {
                owner.unparsed++;
                return;
            }
            Segment s = owner.segment;
            s.direction = dir;
            s.timestamp = e.timestamp();
            s.address(e, ip.saddr(), true);
            s.address(e, ip.daddr(), false);
            long ipLen = e.longValue(ip.length());
            long ipHeader = ip.v4() ? (ip.ihl() == null ? 5 : e.longValue(ip.ihl())) * 4 : 0;
            s.sourcePort = (int) e.longValue(t.sport());
            s.destinationPort = (int) e.longValue(t.dport());
            if (tcp) {
                long f = e.longValue(t.flags());
                long dataOffset = t.dataOffset() != null ? e.longValue(t.dataOffset()) : (f >>> 12) & 0xF;
                s.seq = e.longValue(t.seq());
                s.ack = e.longValue(t.ack());
                s.flags = (int) (f & 0x1FF);
                s.payloadLength = (int) (ipLen - ipHeader - dataOffset * 4);
            } else {
                s.seq = ip.v4() && ip.ipId() != null ? e.longValue(ip.ipId()) : -1;
                s.ack = t.udpCheck() == null ? -1 : e.longValue(t.udpCheck());
                s.flags = -1;
                s.payloadLength = (int) (t.udpLength() == null ? -1 : e.longValue(t.udpLength()) - 8);
            }
            owner.layout = Layout.HEADERS;
            owner.count(dir);
            owner.sink.segment(s);
        }
    }

    /** Formats an address for display. */
    public static String addressText(byte[] a) {
        try {
            return InetAddress.getByAddress(a).getHostAddress();
        } catch (UnknownHostException e) {
            return "?";
        }
    }
}
