package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The address inference's counts ({@link CaptureNodes.AddressCounts}) against the
 * {@code HashMap<Long, Long>} merged one packet at a time that they replace: the same counts and
 * the same iteration order (which orders tied addresses in the inference's messages).
 */
class AddressCountsTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 11, 12, 13, 24, 25, 40, 48, 49, 300, 5000})
    void countsAndOrderAreTheMergedMapsOnes(int addresses) {
        SplittableRandom r = new SplittableRandom(addresses);
        long[] pool = new long[addresses];
        for (int i = 0; i < addresses; i++) {
            // IPv4-mapped, as DecodedPacket.srcLo holds them; some in one /24, some anywhere
            long v4 = r.nextBoolean() ? 0x0a090000L | r.nextInt(1 << 16) : r.nextLong(1L << 32);
            pool[i] = DecodedPacket.V4_MAPPED | v4;
        }
        CaptureNodes.AddressCounts counts = new CaptureNodes.AddressCounts();
        Map<Long, Long> merged = new HashMap<>();
        int packets = r.nextBoolean() ? 20_000 : addresses; // few packets: every address seen once or not at all
        for (int n = 0; n < packets; n++) {
            // a few addresses in most packets, as in a capture
            long a = pool[r.nextInt(4) == 0 ? r.nextInt(addresses) : r.nextInt(Math.min(3, addresses))];
            counts.add(a);
            merged.merge(a, 1L, Long::sum);
        }
        if (r.nextBoolean()) {
            // the last packet names an address not seen before: no merge call came after it
            long fresh = DecodedPacket.V4_MAPPED | 0x0b000000L | r.nextInt(1 << 16);
            counts.add(fresh);
            merged.merge(fresh, 1L, Long::sum);
        }
        Map<Long, Long> map = counts.toMap();
        assertThat(map).isEqualTo(merged);
        assertThat(new ArrayList<>(map.entrySet())).isEqualTo(new ArrayList<>(merged.entrySet()));
        List<Long> absent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            long a = DecodedPacket.V4_MAPPED | r.nextLong(1L << 32);
            if (!merged.containsKey(a)) {
                absent.add(a);
            }
        }
        for (long a : absent) {
            assertThat(counts.count(a)).isZero();
        }
    }
}
