package org.tracesync.formats.pcap;

import org.tracesync.formats.InputOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.TraceFormatException;

/**
 * Who captured each file: node name and own addresses.
 *
 * <p>Name: {@code --name} (options), else the file stem ({@code h1.pcap} → {@code h1}).
 *
 * <p>Own addresses, first rule that applies:
 * <ol>
 * <li>{@code --node-address} for that node name;</li>
 * <li>the {@code if_IPv4addr}/{@code if_IPv6addr} options of the pcapng interfaces;</li>
 * <li>inferred from the traffic: over the first {@code inferPackets} IP packets, per address
 *     family, the unicast address that appears (as source or destination) in the most packets,
 *     provided it appears in at least half of that family's packets — a capture taken on a host
 *     sees that host's address in every packet it sends or receives. When two addresses tie (a
 *     host that talks to a single peer), addresses already claimed by another capture are
 *     excluded; if still ambiguous, reading fails and asks for {@code --node-address}.</li>
 * </ol>
 * Cost: reads at most {@code inferPackets} packets per file.
 */
public final class CaptureNodes {

    private CaptureNodes() {
    }

    private record Candidates(List<String> declared, Map<String, Long> counts, long[] familyTotals) {
    }

    /** Opens the capture of index i (in {@code files} order) for the address inference. */
    @FunctionalInterface
    public interface Opener {
        CaptureReader open(int index) throws IOException;
    }

    public static List<NodeInfo> resolve(List<Path> files, InputOptions options) throws IOException {
        return resolve(files, options, i -> CaptureReader.open(files.get(i)));
    }

    /**
     * As {@link #resolve(List, InputOptions)}, reading each capture through {@code opener}
     * (files on a Hadoop file system); {@code files} give the names.
     */
    public static List<NodeInfo> resolve(List<Path> files, InputOptions options, Opener opener) throws IOException {
        if (!options.names().isEmpty() && options.names().size() != files.size()) {
            throw new org.tracesync.core.model.InvalidRequestException(options.names().size() + " names (--name) for " + files.size()
                    + " captures");
        }
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < files.size(); i++) {
            String n = options.names().isEmpty() ? stem(files.get(i)) : options.names().get(i);
            if (!seen.add(n)) {
                throw new org.tracesync.core.model.InvalidRequestException("two captures have the node name '" + n
                        + "': rename one (--name)");
            }
            names.add(n);
        }
        for (String n : options.nodeAddresses().keySet()) {
            if (!names.contains(n)) {
                throw new org.tracesync.core.model.InvalidRequestException("--node-address " + n
                        + ": no capture of that node (nodes: " + names + ")");
            }
        }
        List<Candidates> cands = new ArrayList<>();
        List<List<String>> own = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            List<String> given = options.nodeAddresses().get(names.get(i));
            if (given != null && !given.isEmpty()) {
                cands.add(null);
                own.add(canonical(given, files.get(i)));
                continue;
            }
            Candidates c = scan(opener.open(i), options.inferPackets());
            cands.add(c);
            own.add(c.declared().isEmpty() ? null : c.declared());
        }
        // unique winners first
        List<List<String>> tied = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            tied.add(null);
            if (own.get(i) != null) {
                continue;
            }
            List<String> winners = new ArrayList<>();
            List<String> ties = new ArrayList<>();
            for (int fam = 0; fam < 2; fam++) {
                List<String> top = top(cands.get(i), fam);
                if (top.size() == 1) {
                    winners.add(top.get(0));
                } else {
                    ties.addAll(top);
                }
            }
            if (ties.isEmpty()) {
                if (winners.isEmpty()) {
                    throw new TraceFormatException(files.get(i), "", "cannot infer the capturing host's "
                            + "address: no address appears in at least half of the IP packets; give "
                            + "--node-address " + names.get(i) + "=ADDRESS");
                }
                own.set(i, winners);
            } else {
                tied.set(i, ties);
                own.set(i, winners); // provisional
            }
        }
        for (int i = 0; i < files.size(); i++) {
            if (tied.get(i) == null) {
                continue;
            }
            Set<String> others = new HashSet<>();
            for (int j = 0; j < files.size(); j++) {
                if (j != i && tied.get(j) == null) {
                    others.addAll(own.get(j));
                }
            }
            List<String> left = new ArrayList<>(tied.get(i));
            left.removeAll(others);
            if (left.size() != 1) {
                throw new TraceFormatException(files.get(i), "", "cannot infer the capturing host's "
                        + "address: " + String.join(" and ", tied.get(i)) + " appear equally often; give "
                        + "--node-address " + names.get(i) + "=ADDRESS");
            }
            List<String> o = new ArrayList<>(own.get(i));
            o.add(left.get(0));
            own.set(i, o);
        }
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            nodes.add(new NodeInfo(names.get(i), files.get(i).toString(), own.get(i)));
        }
        return nodes;
    }

    private static List<String> canonical(List<String> given, Path file) throws TraceFormatException {
        List<String> out = new ArrayList<>();
        for (String g : given) {
            long[] a = DecodedPacket.parseAddress(g);
            if (a == null) {
                throw new TraceFormatException(file, "", "--node-address '" + g + "' is not an IP address");
            }
            out.add(DecodedPacket.addressText(a[0], a[1]));
        }
        return out;
    }

    /** Addresses of family {@code fam} (0 = IPv4, 1 = IPv6) with the top count, if ≥ half. */
    private static List<String> top(Candidates c, int fam) {
        long best = 0;
        List<String> top = new ArrayList<>();
        for (Map.Entry<String, Long> e : c.counts().entrySet()) {
            boolean v6 = e.getKey().contains(":");
            if ((fam == 1) != v6) {
                continue;
            }
            if (e.getValue() > best) {
                best = e.getValue();
                top.clear();
                top.add(e.getKey());
            } else if (e.getValue() == best) {
                top.add(e.getKey());
            }
        }
        if (best == 0 || best * 2 < c.familyTotals()[fam]) {
            return List.of();
        }
        return top;
    }

    private static Candidates scan(CaptureReader reader, int limit) throws IOException {
        AddressCounts v4 = new AddressCounts();
        Map<List<Long>, Long> v6 = new HashMap<>();
        long[] totals = new long[2];
        DecodedPacket p = new DecodedPacket();
        Set<String> declared = new LinkedHashSet<>();
        try (CaptureReader r = reader) {
            int n = 0;
            while (n < limit && r.next()) {
                int kind = PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p);
                if (kind == DecodedPacket.OTHER) {
                    continue;
                }
                n++;
                totals[p.ipVersion == 4 ? 0 : 1]++;
                count(p.srcHi, p.srcLo, v4, v6);
                if (p.dstHi != p.srcHi || p.dstLo != p.srcLo) {
                    count(p.dstHi, p.dstLo, v4, v6);
                }
            }
            for (CaptureInterface ci : r.interfaces()) {
                declared.addAll(ci.addresses());
            }
        }
        Map<String, Long> counts = new HashMap<>();
        v4.toMap().forEach((k, v) -> counts.put(DecodedPacket.addressText(0, k), v));
        v6.forEach((k, v) -> counts.put(DecodedPacket.addressText(k.get(0), k.get(1)), v));
        return new Candidates(new ArrayList<>(declared), counts, totals);
    }

    private static void count(long hi, long lo, AddressCounts v4, Map<List<Long>, Long> v6) {
        if (DecodedPacket.isGroupAddress(hi, lo)) {
            return;
        }
        if (hi == 0 && (lo >>> 32) == 0xffff) {
            if ((lo & 0xff) == 0xff) {
                return; // probable directed broadcast
            }
            v4.add(lo);
        } else {
            v6.merge(List.of(hi, lo), 1L, Long::sum);
        }
    }

    /**
     * Packets per IPv4 address (as {@link DecodedPacket#srcLo} holds it, never 0), without a boxed
     * key and count per packet: open addressing, linear probing, grown at half full. The inference
     * counts two addresses for each of up to {@code inferPackets} packets per capture (100,000 by
     * default); with a {@code HashMap<Long, Long>} merged per address, the whole inference was
     * about 2.5 % of a read + match of the 1.17 GB benchmark set in a profile (docs/PERFORMANCE.md,
     * seventh session).
     */
    static final class AddressCounts {
        private long[] keys = new long[64];
        private long[] counts = new long[64];
        private int size;
        /** The addresses in the order first seen. */
        private long[] order = new long[32];
        /** Whether the last {@link #add} saw a new address. */
        private boolean lastWasNew;

        void add(long address) {
            int mask = keys.length - 1;
            int i = (int) ((address * 0x9E3779B97F4A7C15L) >>> 40) & mask;
            while (keys[i] != 0 && keys[i] != address) {
                i = (i + 1) & mask;
            }
            lastWasNew = keys[i] == 0;
            if (keys[i] == 0) {
                if ((size + 1) * 2 > keys.length) {
                    grow();
                    add(address);
                    return;
                }
                keys[i] = address;
                if (size == order.length) {
                    order = java.util.Arrays.copyOf(order, size * 2);
                }
                order[size++] = address;
            }
            counts[i]++;
        }

        private void grow() {
            long[] oldKeys = keys;
            long[] oldCounts = counts;
            keys = new long[oldKeys.length * 2];
            counts = new long[oldKeys.length * 2];
            int mask = keys.length - 1;
            for (int j = 0; j < oldKeys.length; j++) {
                if (oldKeys[j] != 0) {
                    int i = (int) ((oldKeys[j] * 0x9E3779B97F4A7C15L) >>> 40) & mask;
                    while (keys[i] != 0) {
                        i = (i + 1) & mask;
                    }
                    keys[i] = oldKeys[j];
                    counts[i] = oldCounts[j];
                }
            }
        }

        /** The count of {@code address}, 0 when never added. */
        long count(long address) {
            int mask = keys.length - 1;
            int i = (int) ((address * 0x9E3779B97F4A7C15L) >>> 40) & mask;
            while (keys[i] != 0 && keys[i] != address) {
                i = (i + 1) & mask;
            }
            return keys[i] == 0 ? 0 : counts[i];
        }

        /**
         * The counts as the {@code HashMap} that merging one packet at a time gave, iteration order
         * included: {@code merge} puts a new key at the head of its bin (so the addresses are merged
         * in the order first seen, not put), and resizes at the start of a call, so when an address
         * already counted came after the last new one, that call's resize is made here too.
         */
        Map<Long, Long> toMap() {
            Map<Long, Long> m = new HashMap<>();
            for (int j = 0; j < size; j++) {
                m.merge(order[j], count(order[j]), Long::sum);
            }
            if (size > 0 && !lastWasNew) {
                m.merge(order[0], 0L, Long::sum);
            }
            return m;
        }
    }

    /** File name without its last extension. */
    public static String stem(Path file) {
        String n = file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }
}
