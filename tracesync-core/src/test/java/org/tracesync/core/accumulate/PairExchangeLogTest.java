package org.tracesync.core.accumulate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.tracesync.core.estimate.RegressionEstimator;

/** Exchanges oriented for their pair, and the regression samples they give, against a hand computation. */
class PairExchangeLogTest {

    /**
     * Pair (0, 1), X0 = 1000, V0 = 500. Exchange 1, data 0 → 1: sent 1000 on 0, received 1600 on
     * 1, acknowledged 1700 on 1, received 1400 on 0: θ = ((1600 − 1000 − 500) + (1700 − 1400 − 500)) / 2
     * = −50 at u = (0 + 400) / 2 = 200, margin ((1400 − 1000) − (1700 − 1600)) / 2 = 150.
     * Exchange 2, data 1 → 0: sent 2700 on 1, received 2300 on 0, acknowledged 2350 on 0, received
     * 2900 on 1. Its a → b message is the acknowledgement (2350 → 2900), its b → a message the data
     * (2700 → 2300): θ = ((2900 − 2350 − 500) + (2700 − 2300 − 500)) / 2 = −25 at
     * u = (1350 + 1300) / 2 = 1325, margin ((2300 − 2350) − (2700 − 2900)) / 2 = 75, half the round
     * trip (2900 − 2700) − (2350 − 2300) = 150.
     */
    @Test
    void exchangesEitherWayGiveTheHandComputedSamples() {
        PairExchangeLog log = new PairExchangeLog(3);
        log.exchange(0, 1, 1000, 1600, 1700, 1400);
        log.exchange(1, 0, 2700, 2300, 2350, 2900);
        log.exchange(2, 2, 1, 2, 3, 4); // same node: ignored
        assertThat(log.count(0, 1)).isEqualTo(2);
        assertThat(log.count(0, 2)).isZero();
        long[][] x = log.exchanges(0, 1);
        assertThat(x[0]).containsExactly(1000, 2350); // x_s: a's sends
        assertThat(x[1]).containsExactly(1600, 2900); // y_r: b's receipts
        assertThat(x[2]).containsExactly(1700, 2700); // y_s: b's sends
        assertThat(x[3]).containsExactly(1400, 2300); // x_r: a's receipts
        double[][] s = RegressionEstimator.samples(x[0], x[1], x[2], x[3], 1000, 500);
        assertThat(s[0]).containsExactly(200, 1325);
        assertThat(s[1]).containsExactly(-50, -25);
        assertThat(s[2]).containsExactly(150, 75);
        assertThat(log.exchanges(1, 2)[0]).isEmpty();
    }

    @Test
    void growsBeyondItsFirstArrays() {
        PairExchangeLog log = new PairExchangeLog(2);
        for (int i = 0; i < 100; i++) {
            log.exchange(i % 2, 1 - i % 2, i, i + 1, i + 2, i + 3);
        }
        long[][] x = log.exchanges(0, 1);
        assertThat(x[0]).hasSize(100);
        assertThat(x[0][99]).isEqualTo(99 + 2); // data from 1: a's send is the acknowledgement
        assertThat(x[3][98]).isEqualTo(98 + 3);
    }
}
