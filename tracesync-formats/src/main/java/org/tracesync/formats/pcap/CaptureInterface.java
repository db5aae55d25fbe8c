package org.tracesync.formats.pcap;

import java.util.List;

/**
 * One capture interface: the single implicit interface of a pcap file, or a pcapng Interface
 * Description Block.
 *
 * @param id         interface id (index of its IDB within its section; 0 for pcap)
 * @param linkType   LINKTYPE_ value
 * @param snapLength maximum captured length (0 = unlimited)
 * @param resolution how the interface's timestamps convert to ns
 * @param offsetSeconds {@code if_tsoffset}: seconds added to every timestamp
 * @param name       {@code if_name}, or empty
 * @param addresses  {@code if_IPv4addr}/{@code if_IPv6addr} values (textual), possibly empty
 * @param ipv4Broadcasts directed broadcast addresses derived from {@code if_IPv4addr} netmasks,
 *                   as unsigned 32-bit values
 */
public record CaptureInterface(int id, int linkType, long snapLength, TimestampResolution resolution,
                               long offsetSeconds, String name, List<String> addresses,
                               List<Long> ipv4Broadcasts) {
    public CaptureInterface {
        addresses = List.copyOf(addresses);
        ipv4Broadcasts = List.copyOf(ipv4Broadcasts);
    }
}
