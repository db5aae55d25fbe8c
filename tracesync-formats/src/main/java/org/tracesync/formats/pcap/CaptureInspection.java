package org.tracesync.formats.pcap;

import org.tracesync.formats.InputOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.model.NodeInfo;

/**
 * What a capture holds, for {@code tracesync inspect}: its format and interfaces, the node name and
 * own addresses {@code sync} would use (and where they come from), its time range and what its
 * packets are. One pass over the file; nothing is matched.
 *
 * @param format          "pcap" or "pcapng"
 * @param node            node name (the file stem, as {@code sync} uses by default)
 * @param addresses       the node's own addresses, empty when they cannot be determined
 * @param addressSource   how they were found, or why not
 * @param packets         packets in the file
 * @param first           first timestamp (ns since the epoch), 0 without packets
 * @param last            last timestamp (ns since the epoch)
 * @param backwardSteps   packets whose timestamp is earlier than the previous packet's
 * @param tcp             TCP segments (IPv4/IPv6)
 * @param tcpWithPayload  of which carrying data
 * @param udp             UDP datagrams
 * @param udpGroup        of which to a broadcast or multicast address
 * @param otherIp         other IP packets
 * @param notIp           packets that are not IP, or whose link type is not supported
 */
public record CaptureInspection(Path file, String format, List<CaptureInterface> interfaces, String node,
                                List<String> addresses, String addressSource, long packets, long first, long last,
                                long backwardSteps, long tcp, long tcpWithPayload, long udp, long udpGroup,
                                long otherIp, long notIp, List<String> warnings) {

    public CaptureInspection {
        interfaces = List.copyOf(interfaces);
        addresses = List.copyOf(addresses);
        warnings = List.copyOf(warnings);
    }

    public static CaptureInspection of(Path file) throws IOException {
        String format;
        List<CaptureInterface> interfaces;
        List<String> warnings = new ArrayList<>();
        long packets = 0;
        long first = 0;
        long last = 0;
        long previous = Long.MIN_VALUE;
        long backward = 0;
        long tcp = 0;
        long tcpData = 0;
        long udp = 0;
        long udpGroup = 0;
        long otherIp = 0;
        long notIp = 0;
        DecodedPacket p = new DecodedPacket();
        try (CaptureReader r = CaptureReader.open(file)) {
            format = r instanceof PcapngReader ? "pcapng" : "pcap";
            List<Long> directed = new ArrayList<>();
            int interfacesSeen = 0;
            while (r.next()) {
                long t = r.timestamp();
                if (packets == 0) {
                    first = t;
                }
                if (t < previous) {
                    backward++;
                }
                previous = t;
                last = Math.max(last, t);
                packets++;
                int kind = PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p);
                switch (kind) {
                    case DecodedPacket.TCP -> {
                        tcp++;
                        if (p.payloadLength > 0) {
                            tcpData++;
                        }
                    }
                    case DecodedPacket.UDP -> {
                        udp++;
                        if (r.interfaces().size() != interfacesSeen) { // pcapng may describe interfaces late
                            interfacesSeen = r.interfaces().size();
                            directed.clear();
                            for (CaptureInterface i : r.interfaces()) {
                                directed.addAll(i.ipv4Broadcasts());
                            }
                        }
                        if (CaptureTrace.isBroadcast(p, directed)) {
                            udpGroup++;
                        }
                    }
                    case DecodedPacket.IP_OTHER -> otherIp++;
                    default -> notIp++;
                }
            }
            interfaces = r.interfaces();
            warnings.addAll(r.warnings());
        }
        List<String> addresses = List.of();
        String source;
        boolean declared = interfaces.stream().anyMatch(i -> !i.addresses().isEmpty());
        try {
            NodeInfo n = CaptureNodes.resolve(List.of(file), InputOptions.defaults()).get(0);
            addresses = n.addresses();
            source = declared ? "pcapng interface options (if_IPv4addr/if_IPv6addr)"
                    : "inferred from the traffic: the address in the most packets of its family";
        } catch (IllegalArgumentException | IOException e) {
            source = "not determined: " + e.getMessage();
        }
        if (backward > 0) {
            warnings.add(backward + " packets whose timestamp goes backwards");
        }
        return new CaptureInspection(file, format, interfaces, CaptureNodes.stem(file), addresses, source, packets,
                first, last, backward, tcp, tcpData, udp, udpGroup, otherIp, notIp, warnings);
    }
}
