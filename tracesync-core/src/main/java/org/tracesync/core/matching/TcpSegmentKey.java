package org.tracesync.core.matching;

import java.util.Arrays;

/**
 * Match key of a TCP segment (DESIGN §1): addresses, ports, sequence and acknowledgement numbers,
 * flags and payload length. Sources that do not see a field (the LTTng add-on events carry only
 * seq, ack_seq and flags) leave addresses null/empty and ports, length at -1 — consistently on
 * both sides, so keys still compare equal.
 */
public record TcpSegmentKey(byte[] source, byte[] destination, int sourcePort, int destinationPort,
                            long seq, long ack, int flags, int payloadLength) {

    @Override
    public boolean equals(Object o) {
        return o instanceof TcpSegmentKey k
                && sourcePort == k.sourcePort && destinationPort == k.destinationPort
                && seq == k.seq && ack == k.ack && flags == k.flags
                && payloadLength == k.payloadLength
                && Arrays.equals(source, k.source) && Arrays.equals(destination, k.destination);
    }

    @Override
    public int hashCode() {
        int h = Arrays.hashCode(source) * 31 + Arrays.hashCode(destination);
        h = h * 31 + sourcePort;
        h = h * 31 + destinationPort;
        h = h * 31 + Long.hashCode(seq);
        h = h * 31 + Long.hashCode(ack);
        h = h * 31 + flags;
        return h * 31 + payloadLength;
    }

    @Override
    public String toString() {
        return "tcp[" + sourcePort + "->" + destinationPort + " seq=" + seq + " ack=" + ack
                + " flags=" + flags + " len=" + payloadLength + "]";
    }
}
