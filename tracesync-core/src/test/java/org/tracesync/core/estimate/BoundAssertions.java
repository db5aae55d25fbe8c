package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import org.tracesync.core.transform.MonotoneBound;

/** Assertions on bounds shared by this package's tests. */
final class BoundAssertions {

    private BoundAssertions() {
    }

    /** {@code actual} is {@code expected} exactly: the same kind, rows (time, value) and end slopes. */
    static void assertSameBound(MonotoneBound actual, MonotoneBound expected) {
        assertThat(actual.kind()).isEqualTo(expected.kind());
        assertThat(actual.size()).isEqualTo(expected.size());
        for (int k = 0; k < expected.size(); k++) {
            assertThat(actual.t(k)).as("row %d's time", k).isEqualTo(expected.t(k));
            assertThat(actual.r(k)).as("row %d's value", k).isEqualTo(expected.r(k));
        }
        assertThat(actual.slopeLeft()).isEqualTo(expected.slopeLeft());
        assertThat(actual.slopeRight()).isEqualTo(expected.slopeRight());
    }
}
