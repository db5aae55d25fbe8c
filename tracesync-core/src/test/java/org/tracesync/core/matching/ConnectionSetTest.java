package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConnectionSetTest {

    /** Against a HashSet: adds (with 0 and repeats) through several growths, then membership of members and others. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void answersAsAHashSetDoes(long seed) {
        Random rnd = new Random(seed);
        ConnectionSet set = new ConnectionSet();
        Set<Long> expected = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            // connection words: few addresses, ports in a small range, so that words share most bits
            long k = i % 997 == 0 ? 0 : TcpMatcher.connection(rnd.nextInt(4), rnd.nextInt(4), 1000 + rnd.nextInt(3000),
                    5000 + rnd.nextInt(8));
            assertThat(set.add(k)).isEqualTo(expected.add(k));
            assertThat(set.size()).isEqualTo(expected.size());
        }
        assertThat(expected).contains(0L).hasSizeGreaterThan(5_000);
        for (long k : expected) {
            assertThat(set.contains(k)).isTrue();
        }
        for (int i = 0; i < 20_000; i++) {
            long k = rnd.nextLong();
            assertThat(set.contains(k)).isEqualTo(expected.contains(k));
        }
    }
}
