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
 * read of the event class; events that are not network events allocate nothing.
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

    private final NetEventSink sink;
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
        CtfNetworkEvents net = new CtfNetworkEvents(e -> { });
        net.stopAtStatedumpEnd = true;
        return net;
    }

    public CtfNetworkEvents(NetEventSink sink) {
        this.sink = sink;
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
            TcpSegmentKey key = new TcpSegmentKey(null, null, -1, -1, e.longValue(seq), e.longValue(ack),
                    (int) e.longValue(flags), -1);
            owner.layout = Layout.ADDON;
            owner.count(dir);
            owner.sink.event(new NetEvent(dir, e.timestamp(), key));
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
    private record Ip(boolean v4, CtfFieldRef saddr, CtfFieldRef daddr, CtfFieldRef length, CtfFieldRef ihl,
                      CtfFieldRef ipId, CtfFieldRef thType, Transport tcp, Transport udp) {
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

        void emit(CtfEvent e) {
            String nh = e.enumLabel(nhType);
            Ip ip = "_ipv4".equals(nh) || "ipv4".equals(nh) ? v4 : "_ipv6".equals(nh) || "ipv6".equals(nh) ? v6 : null;
            if (ip == null || ip.thType() == null) {
                owner.unparsed++;
                return;
            }
            String th = e.enumLabel(ip.thType());
            boolean tcp = "_tcp".equals(th) || "tcp".equals(th);
            boolean udp = "_udp".equals(th) || "udp".equals(th);
            Transport t = tcp ? ip.tcp() : udp ? ip.udp() : null;
            if (t == null || (tcp && (t.seq() == null || t.ack() == null || t.flags() == null))) {
                owner.unparsed++;
                return;
            }
            byte[] src = e.bytes(ip.saddr());
            byte[] dst = e.bytes(ip.daddr());
            long ipLen = e.longValue(ip.length());
            long ipHeader = ip.v4() ? (ip.ihl() == null ? 5 : e.longValue(ip.ihl())) * 4 : 0;
            TcpSegmentKey key;
            if (tcp) {
                long f = e.longValue(t.flags());
                long dataOffset = t.dataOffset() != null ? e.longValue(t.dataOffset()) : (f >>> 12) & 0xF;
                long payload = ipLen - ipHeader - dataOffset * 4;
                key = new TcpSegmentKey(src, dst, (int) e.longValue(t.sport()), (int) e.longValue(t.dport()),
                        e.longValue(t.seq()), e.longValue(t.ack()), (int) (f & 0x1FF), (int) payload);
            } else {
                long ulen = t.udpLength() == null ? -1 : e.longValue(t.udpLength()) - 8;
                key = new TcpSegmentKey(src, dst, (int) e.longValue(t.sport()), (int) e.longValue(t.dport()),
                        ip.v4() && ip.ipId() != null ? e.longValue(ip.ipId()) : -1,
                        t.udpCheck() == null ? -1 : e.longValue(t.udpCheck()), -1, (int) ulen);
            }
            owner.layout = Layout.HEADERS;
            owner.count(dir);
            owner.sink.event(new NetEvent(dir, e.timestamp(), key));
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
