package org.tracesync.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.formats.AddressTable;

/**
 * Addresses that no traced host owns (kernel traces without a statedump, peers outside the set)
 * are numbered by each task as it meets them; the driver accepts the numbering only when every task
 * agrees, else it numbers them itself for a second attempt.
 */
class ForeignAddressTest {

    private static final long V4 = 0xffff_0000_0000L;

    private static TraceReport report(int file, int firstId, long... foreign) {
        return new TraceReport(file, 0, 0, 0, 0, 0, 0, 0, 0, 0, firstId, foreign, List.of());
    }

    @Test
    void tasksThatNumberedAlikeNeedNoSecondAttempt() {
        assertThat(SparkCaptureSync.foreignSeed(List.of(report(0, 2, 0, V4 | 1, 0, V4 | 2), report(1, 2, 0, V4 | 1),
                report(2, 2)))).isNull();
    }

    @Test
    void oneAddressUnderTwoIdsOrTwoAddressesUnderOneIdGiveTheDriversNumbering() {
        // task 0 met .1 then .2; task 1 met .2 first: .2 has ids 3 and 2, id 2 names .1 and .2
        long[] seed = SparkCaptureSync.foreignSeed(List.of(report(0, 2, 0, V4 | 1, 0, V4 | 2), report(1, 2, 0, V4 | 2)));
        assertThat(seed).containsExactly(0, V4 | 1, 0, V4 | 2);
        // every task's table then holds the traced addresses, then the seed, in that order
        AddressTable t = TraceDecoder.table(List.of(List.of("10.0.0.1"), List.of("10.0.0.2")), seed);
        assertThat(t.size()).isEqualTo(4);
        assertThat(t.find(0, V4 | 1)).isEqualTo(2);
        assertThat(t.find(0, V4 | 2)).isEqualTo(3);
        assertThat(t.ownerOf(t.find(0, V4 | 0x0a000002L))).isEqualTo(1);
        assertThat(t.hiOf(3)).isZero();
        assertThat(t.loOf(3)).isEqualTo(V4 | 2);
    }
}
