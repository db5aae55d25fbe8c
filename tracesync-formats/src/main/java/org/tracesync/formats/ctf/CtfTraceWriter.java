package org.tracesync.formats.ctf;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Writes CTF 1.8 traces laid out as lttng-modules (≥ 2.9, x86-64 little-endian) writes a kernel
 * trace: {@code net_dev_queue} / {@code net_if_receive_skb} events carrying the IPv4/IPv6 header
 * and the TCP/UDP/ICMP header (the later layout: transport header inside the network header,
 * {@code data_offset}, 9-bit {@code flags}), {@code lttng_statedump_network_interface} events
 * followed, as LTTng ends its statedump, by one {@code lttng_statedump_end} (written before the
 * next other event, or at the end, at the last interface event's time and on its CPU, when all
 * interface events went to one CPU; readers that only want the own addresses stop there), and
 * {@code sched_switch} events as filler. One stream file per CPU ({@code channel0_N}), packets of a
 * fixed size, compact event headers with extended ones when 32 timestamp bits do not suffice.
 *
 * <p>The clock is {@code monotonic}, 1 GHz by default, with the offset given at creation, so an
 * event written at epoch time t (ns) has clock value {@code t − clockOffset}. A coarser clock (a
 * frequency dividing 10⁹, e.g. 1 MHz) truncates: clock value {@code ⌊(t − clockOffset) / period⌋},
 * as a recorder with a µs clock would. Timestamps must not decrease within
 * one CPU. Memory: one packet buffer per CPU. Cost: linear in the events written.
 */
public final class CtfTraceWriter implements Closeable {

    public static final int DEFAULT_PACKET_SIZE = 1 << 16;
    static final int ID_NET_DEV_QUEUE = 0;
    static final int ID_NET_IF_RECEIVE_SKB = 1;
    static final int ID_STATEDUMP_NETWORK_INTERFACE = 2;
    static final int ID_SCHED_SWITCH = 3;
    static final int ID_STATEDUMP_END = 4;
    private static final int HEADER_AND_CONTEXT = 76;

    private final Path dir;
    private final long clockOffset;
    private final long period;
    private final int packetSize;
    private final UUID uuid = UUID.randomUUID();
    private final List<Stream> streams = new ArrayList<>();
    /** CPU of the statedump's interface events (-1: none yet, -2: several CPUs, no end is written). */
    private int statedumpCpu = -1;
    private long statedumpLast;
    private boolean statedumpOpen;

    private final class Stream {
        final int cpu;
        final OutputStream out;
        final ByteBuffer packet;
        long seq;
        long begin;
        long last = Long.MIN_VALUE;
        long clock;
        boolean open;

        Stream(int cpu) throws IOException {
            this.cpu = cpu;
            this.out = Files.newOutputStream(dir.resolve("channel0_" + cpu));
            this.packet = ByteBuffer.allocate(packetSize).order(ByteOrder.LITTLE_ENDIAN);
        }

        void start(long cycles) {
            packet.clear();
            packet.putInt((int) CtfStreamReader.PACKET_MAGIC);
            packet.order(ByteOrder.BIG_ENDIAN);
            packet.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
            packet.order(ByteOrder.LITTLE_ENDIAN);
            packet.putInt(0); // stream_id
            packet.position(HEADER_AND_CONTEXT);
            begin = cycles;
            clock = cycles;
            open = true;
        }

        void finish() throws IOException {
            if (!open) {
                return;
            }
            int content = packet.position();
            packet.putLong(24, begin);
            packet.putLong(32, clock);
            packet.putLong(40, content * 8L);
            packet.putLong(48, packetSize * 8L);
            packet.putLong(56, seq++);
            packet.putLong(64, 0);
            packet.putInt(72, cpu);
            java.util.Arrays.fill(packet.array(), content, packetSize, (byte) 0);
            out.write(packet.array(), 0, packetSize);
            open = false;
        }
    }

    /**
     * Creates the trace directory (which must not hold a trace) and its metadata.
     *
     * @param clockOffset epoch ns of clock value 0 (e.g. the boot time)
     */
    public CtfTraceWriter(Path dir, String hostname, long clockOffset, int packetSize) throws IOException {
        this(dir, hostname, clockOffset, packetSize, 1_000_000_000L);
    }

    /**
     * @param freq clock frequency, Hz: a divisor of 10⁹ (1 GHz: ns timestamps; 1 MHz: µs), with
     *             {@code clockOffset} a whole number of its periods
     */
    public CtfTraceWriter(Path dir, String hostname, long clockOffset, int packetSize, long freq) throws IOException {
        if (packetSize < 4096 || Integer.bitCount(packetSize) != 1) {
            throw new IllegalArgumentException("packet size must be a power of two >= 4096");
        }
        if (freq <= 0 || freq > 1_000_000_000L || 1_000_000_000L % freq != 0
                || Math.floorMod(clockOffset, 1_000_000_000L / freq) != 0) {
            throw new IllegalArgumentException("clock frequency must divide 10^9 and the offset be a whole number of"
                    + " its periods: " + freq + " Hz, offset " + clockOffset);
        }
        this.dir = dir;
        this.clockOffset = clockOffset;
        this.period = 1_000_000_000L / freq;
        this.packetSize = packetSize;
        Files.createDirectories(dir);
        if (Files.exists(dir.resolve("metadata"))) {
            throw new IOException(dir + " already holds a trace");
        }
        Files.writeString(dir.resolve("metadata"), metadata(hostname), StandardCharsets.UTF_8);
    }

    public CtfTraceWriter(Path dir, String hostname, long clockOffset) throws IOException {
        this(dir, hostname, clockOffset, DEFAULT_PACKET_SIZE);
    }

    private Stream stream(int cpu) throws IOException {
        if (cpu < 0 || cpu > 1023) {
            throw new IllegalArgumentException("cpu out of range: " + cpu);
        }
        while (streams.size() <= cpu) {
            streams.add(null);
        }
        Stream s = streams.get(cpu);
        if (s == null) {
            s = new Stream(cpu);
            streams.set(cpu, s);
        }
        return s;
    }

    /** Writes the payload of one event at the packet buffer's position (alignment is packet-relative). */
    @FunctionalInterface
    private interface Payload {
        void write(ByteBuffer p);
    }

    /** Writes a {@code lttng_statedump_network_interface} event (IPv4 address of an interface). */
    public void networkInterface(int cpu, long timestamp, String ifName, byte[] ipv4) throws IOException {
        byte[] name = ifName.getBytes(StandardCharsets.UTF_8);
        event(cpu, timestamp, ID_STATEDUMP_NETWORK_INTERFACE, p -> {
            p.put(name).put((byte) 0);
            p.put(ipv4, 0, 4);
        });
        statedumpCpu = statedumpCpu == -1 || statedumpCpu == cpu ? cpu : -2;
        statedumpLast = timestamp;
        statedumpOpen = true;
    }

    /** Ends an open statedump: {@code lttng_statedump_end} after the last interface event, on its CPU. */
    private void endStatedump() throws IOException {
        if (!statedumpOpen) {
            return;
        }
        statedumpOpen = false;
        if (statedumpCpu >= 0) {
            event(statedumpCpu, statedumpLast, ID_STATEDUMP_END, p -> { });
        }
    }

    /** Writes a {@code sched_switch} event (filler, as a kernel trace has many). */
    public void schedSwitch(int cpu, long timestamp, String prevComm, int prevTid, int prevPrio, long prevState,
                            String nextComm, int nextTid, int nextPrio) throws IOException {
        endStatedump();
        byte[] prev = prevComm.getBytes(StandardCharsets.UTF_8);
        byte[] next = nextComm.getBytes(StandardCharsets.UTF_8);
        event(cpu, timestamp, ID_SCHED_SWITCH, p -> {
            putChars(p, prev, 16);
            p.putInt(prevTid).putInt(prevPrio).putLong(prevState);
            putChars(p, next, 16);
            p.putInt(nextTid).putInt(nextPrio);
        });
    }

    /**
     * Writes a {@code net_dev_queue} (send) or {@code net_if_receive_skb} (receive) event for an IP
     * packet: its IPv4 or IPv6 header and, for TCP/UDP/ICMP, the transport header are recorded; the
     * payload is not (as LTTng).
     *
     * @param ipPacket the packet from its IP header on (at least the headers)
     */
    public void networkPacket(int cpu, long timestamp, boolean send, String ifName, long skbAddr, byte[] ipPacket)
            throws IOException {
        endStatedump();
        byte[] name = ifName.getBytes(StandardCharsets.UTF_8);
        int version = ipPacket.length > 0 ? (ipPacket[0] & 0xFF) >>> 4 : 0;
        int nh = version == 4 && ipPacket.length >= 20 ? 1 : version == 6 && ipPacket.length >= 40 ? 2 : 0;
        int ipLen = nh == 1 ? 20 : 40;
        int ihl = nh == 1 ? (ipPacket[0] & 0x0F) * 4 : 40;
        int proto = nh == 1 ? ipPacket[9] & 0xFF : nh == 2 ? ipPacket[6] & 0xFF : -1;
        int th = switch (proto) {
            case 6 -> 1;
            case 17 -> 2;
            case 1 -> 3;
            default -> 0;
        };
        int thLen = th == 1 ? 20 : th == 0 ? 0 : 8;
        if (th != 0 && ipPacket.length < ihl + thLen) {
            th = 0;
        }
        int transport = th;
        event(cpu, timestamp, send ? ID_NET_DEV_QUEUE : ID_NET_IF_RECEIVE_SKB, p -> {
            p.putLong(skbAddr);
            p.putInt(ipPacket.length);
            p.put(name).put((byte) 0);
            p.put((byte) nh);
            if (nh != 0) {
                align(p, 2);
                p.put(ipPacket, 0, ipLen);
                p.put((byte) transport);
                if (transport != 0) {
                    align(p, 4);
                    p.put(ipPacket, ihl, thLen);
                }
            }
        });
    }

    private static void align(ByteBuffer b, int bytes) {
        while (b.position() % bytes != 0) {
            b.put((byte) 0);
        }
    }

    private static void putChars(ByteBuffer b, byte[] c, int n) {
        for (int i = 0; i < n; i++) {
            b.put(i < c.length && i < n - 1 ? c[i] : 0);
        }
    }

    /** Appends one event (large event header, compact when the clock advanced less than 2³² cycles). */
    private void event(int cpu, long timestamp, int id, Payload payload) throws IOException {
        Stream s = stream(cpu);
        long cycles = Math.floorDiv(timestamp - clockOffset, period);
        if (cycles < 0) {
            throw new IllegalArgumentException("timestamp " + timestamp + " before the clock offset " + clockOffset);
        }
        if (s.last != Long.MIN_VALUE && cycles < s.last) {
            throw new IllegalArgumentException("timestamps must not decrease on a CPU: " + timestamp);
        }
        for (int attempt = 0; attempt < 2; attempt++) {
            if (!s.open) {
                s.start(cycles);
            }
            ByteBuffer p = s.packet;
            int mark = p.position();
            try {
                if (cycles - s.clock < (1L << 32) && id < 0xFFFF) {
                    p.putShort((short) id);
                    p.putInt((int) cycles);
                } else {
                    p.putShort((short) 0xFFFF);
                    p.putInt(id);
                    p.putLong(cycles);
                }
                payload.write(p);
            } catch (BufferOverflowException e) {
                p.position(mark);
                if (mark == HEADER_AND_CONTEXT) {
                    throw new IllegalArgumentException("event larger than a packet");
                }
                s.finish();
                continue;
            }
            s.clock = cycles;
            s.last = cycles;
            return;
        }
        throw new IllegalStateException("unreachable");
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        try {
            endStatedump();
        } catch (IOException e) {
            first = e;
        }
        for (Stream s : streams) {
            if (s == null) {
                continue;
            }
            try {
                s.finish();
                s.out.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private String metadata(String hostname) {
        long offS = Math.floorDiv(clockOffset, 1_000_000_000L);
        long offC = Math.floorMod(clockOffset, 1_000_000_000L) / period;
        String be8 = "integer { size = 8; align = 8; signed = 0; encoding = none; base = 10; byte_order = be; }";
        String be16 = "integer { size = 16; align = 8; signed = 0; encoding = none; base = 10; byte_order = be; }";
        String be16x = "integer { size = 16; align = 8; signed = 0; encoding = none; base = 16; byte_order = be; }";
        String be32 = "integer { size = 32; align = 8; signed = 0; encoding = none; base = 10; byte_order = be; }";
        String be4 = "integer { size = 4; align = 4; signed = 0; encoding = none; base = 10; byte_order = be; }";
        String proto = "enum : " + be8 + " { \"_unknown\" = 0, \"_icmp\" = 1, \"_unknown\" = 2 ... 5, \"_tcp\" = 6,"
                + " \"_unknown\" = 7 ... 16, \"_udp\" = 17, \"_unknown\" = 18 ... 255 }";
        String thType = "enum : integer { size = 8; align = 8; signed = 0; encoding = none; base = 10; }"
                + " { \"_unknown\" = 0, \"_tcp\" = 1, \"_udp\" = 2, \"_icmp\" = 3 } _transport_header_type;\n";
        String transport = "\t\t\t\tvariant <_transport_header_type> {\n"
                + "\t\t\t\t\tstruct { } _unknown;\n"
                + "\t\t\t\t\tstruct {\n"
                + "\t\t\t\t\t\t" + be16 + " _source_port;\n"
                + "\t\t\t\t\t\t" + be16 + " _dest_port;\n"
                + "\t\t\t\t\t\t" + be32 + " _seq;\n"
                + "\t\t\t\t\t\t" + be32 + " _ack_seq;\n"
                + "\t\t\t\t\t\t" + be4 + " _data_offset;\n"
                + "\t\t\t\t\t\tinteger { size = 3; align = 1; signed = 0; encoding = none; base = 10; byte_order = be; } _reserved;\n"
                + "\t\t\t\t\t\tinteger { size = 9; align = 1; signed = 0; encoding = none; base = 16; byte_order = be; } _flags;\n"
                + "\t\t\t\t\t\t" + be16 + " _window_size;\n"
                + "\t\t\t\t\t\t" + be16x + " _checksum;\n"
                + "\t\t\t\t\t\t" + be16 + " _urg_ptr;\n"
                + "\t\t\t\t\t} align(32) _tcp;\n"
                + "\t\t\t\t\tstruct {\n"
                + "\t\t\t\t\t\t" + be16 + " _source_port;\n"
                + "\t\t\t\t\t\t" + be16 + " _dest_port;\n"
                + "\t\t\t\t\t\t" + be16 + " _len;\n"
                + "\t\t\t\t\t\t" + be16 + " _check;\n"
                + "\t\t\t\t\t} align(32) _udp;\n"
                + "\t\t\t\t\tstruct {\n"
                + "\t\t\t\t\t\t" + be8 + " _type;\n"
                + "\t\t\t\t\t\t" + be8 + " _code;\n"
                + "\t\t\t\t\t\t" + be16 + " _checksum;\n"
                + "\t\t\t\t\t\t" + be32 + " _gateway;\n"
                + "\t\t\t\t\t} align(32) _icmp;\n"
                + "\t\t\t\t} _transport_header;\n";
        String netFields = "\tfields := struct {\n"
                + "\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 16; } _skbaddr;\n"
                + "\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 10; } _len;\n"
                + "\t\tstring _name;\n"
                + "\t\tenum : integer { size = 8; align = 8; signed = 0; encoding = none; base = 10; }"
                + " { \"_unknown\" = 0, \"_ipv4\" = 1, \"_ipv6\" = 2 } _network_header_type;\n"
                + "\t\tvariant <_network_header_type> {\n"
                + "\t\t\tstruct { } _unknown;\n"
                + "\t\t\tstruct {\n"
                + "\t\t\t\t" + be4 + " _version;\n"
                + "\t\t\t\t" + be4 + " _ihl;\n"
                + "\t\t\t\t" + be8 + " _tos;\n"
                + "\t\t\t\t" + be16 + " _tot_len;\n"
                + "\t\t\t\t" + be16x + " _id;\n"
                + "\t\t\t\t" + be16 + " _frag_off;\n"
                + "\t\t\t\t" + be8 + " _ttl;\n"
                + "\t\t\t\t" + proto + " _protocol;\n"
                + "\t\t\t\t" + be16x + " _checksum;\n"
                + "\t\t\t\t" + be8 + " _saddr[4];\n"
                + "\t\t\t\t" + be8 + " _daddr[4];\n"
                + "\t\t\t\t" + thType
                + transport
                + "\t\t\t} align(16) _ipv4;\n"
                + "\t\t\tstruct {\n"
                + "\t\t\t\t" + be4 + " _version;\n"
                + "\t\t\t\t" + be4 + " _prio;\n"
                + "\t\t\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 16; byte_order = be; } _flow_lbl[3];\n"
                + "\t\t\t\t" + be16 + " _payload_len;\n"
                + "\t\t\t\t" + proto + " _nexthdr;\n"
                + "\t\t\t\t" + be8 + " _hop_limit;\n"
                + "\t\t\t\tinteger { size = 16; align = 16; signed = 0; encoding = none; base = 16; byte_order = be; } _saddr[8];\n"
                + "\t\t\t\tinteger { size = 16; align = 16; signed = 0; encoding = none; base = 16; byte_order = be; } _daddr[8];\n"
                + "\t\t\t\t" + thType
                + transport
                + "\t\t\t} align(16) _ipv6;\n"
                + "\t\t} _network_header;\n"
                + "\t};\n";
        return "/* CTF 1.8 */\n\n"
                + "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
                + "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
                + "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
                + "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
                + "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n\n"
                + "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"" + uuid + "\";\n\tbyte_order = le;\n"
                + "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t  uuid[16];\n\t\tuint32_t stream_id;\n\t};\n};\n\n"
                + "env {\n\thostname = \"" + hostname.replace("\\", "\\\\").replace("\"", "\\\"") + "\";\n"
                + "\tdomain = \"kernel\";\n\tsysname = \"Linux\";\n\ttracer_name = \"lttng-modules\";\n"
                + "\ttracer_major = 2;\n\ttracer_minor = 9;\n\ttracer_patchlevel = 0;\n"
                + "\ttrace_producer = \"tracesync CtfTraceWriter\";\n};\n\n"
                + "clock {\n\tname = \"monotonic\";\n\tuuid = \"" + UUID.nameUUIDFromBytes(uuid.toString().getBytes(StandardCharsets.UTF_8)) + "\";\n"
                + "\tdescription = \"Monotonic Clock\";\n\tfreq = " + 1_000_000_000L / period + ";\n\tprecision = 0;\n"
                + "\toffset_s = " + offS + ";\n\toffset = " + offC + ";\n\tabsolute = FALSE;\n};\n\n"
                + "typealias integer {\n\tsize = 32; align = 8; signed = false;\n\tmap = clock.monotonic.value;\n} := uint32_clock_monotonic_t;\n\n"
                + "typealias integer {\n\tsize = 64; align = 8; signed = false;\n\tmap = clock.monotonic.value;\n} := uint64_clock_monotonic_t;\n\n"
                + "struct packet_context {\n\tuint64_clock_monotonic_t timestamp_begin;\n\tuint64_clock_monotonic_t timestamp_end;\n"
                + "\tuint64_t content_size;\n\tuint64_t packet_size;\n\tuint64_t packet_seq_num;\n"
                + "\tunsigned long events_discarded;\n\tuint32_t cpu_id;\n};\n\n"
                + "struct event_header_large {\n\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
                + "\tvariant <id> {\n\t\tstruct {\n\t\t\tuint32_clock_monotonic_t timestamp;\n\t\t} compact;\n"
                + "\t\tstruct {\n\t\t\tuint32_t id;\n\t\t\tuint64_clock_monotonic_t timestamp;\n\t\t} extended;\n"
                + "\t} v;\n} align(8);\n\n"
                + "stream {\n\tid = 0;\n\tevent.header := struct event_header_large;\n\tpacket.context := struct packet_context;\n};\n\n"
                + "event {\n\tname = \"net_dev_queue\";\n\tid = " + ID_NET_DEV_QUEUE + ";\n\tstream_id = 0;\n" + netFields + "};\n\n"
                + "event {\n\tname = \"net_if_receive_skb\";\n\tid = " + ID_NET_IF_RECEIVE_SKB + ";\n\tstream_id = 0;\n" + netFields + "};\n\n"
                + "event {\n\tname = \"lttng_statedump_network_interface\";\n\tid = " + ID_STATEDUMP_NETWORK_INTERFACE
                + ";\n\tstream_id = 0;\n\tfields := struct {\n\t\tstring _name;\n"
                + "\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 16; byte_order = be; } _address_ipv4;\n\t};\n};\n\n"
                + "event {\n\tname = \"lttng_statedump_end\";\n\tid = " + ID_STATEDUMP_END
                + ";\n\tstream_id = 0;\n\tfields := struct {\n\t};\n};\n\n"
                + "event {\n\tname = \"sched_switch\";\n\tid = " + ID_SCHED_SWITCH + ";\n\tstream_id = 0;\n\tfields := struct {\n"
                + "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } _prev_comm[16];\n"
                + "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _prev_tid;\n"
                + "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _prev_prio;\n"
                + "\t\tinteger { size = 64; align = 8; signed = 1; encoding = none; base = 10; } _prev_state;\n"
                + "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } _next_comm[16];\n"
                + "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _next_tid;\n"
                + "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _next_prio;\n\t};\n};\n\n";
    }
}
