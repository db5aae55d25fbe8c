package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.core.evaluate.EvaluationReport;

class EvaluationTableTest {

    /** A share just below 1 is never printed as 100.00 %: the count outside is what a user acts on. */
    @ParameterizedTest
    @CsvSource({
        "2882490, 1, '99.99% (1 of 2882490 outside)'",
        "1000, 0, '100.00%'",
        "1000, 999, '0.10% (999 of 1000 outside)'",
        "3, 1, '66.66% (1 of 3 outside)'",
    })
    void containedShareRoundsDownAndNamesTheCountOutside(long withBounds, long outside, String expected) {
        EvaluationReport.Truth t = new EvaluationReport.Truth(withBounds, 0, 0, 0, withBounds,
                (double) (withBounds - outside) / withBounds, 0);
        assertThat(EvaluationTable.contained(t)).isEqualTo(expected);
    }

    @Test
    void noInstantWithBoundsIsADash() {
        EvaluationReport.Truth t = new EvaluationReport.Truth(10, 0, 0, 0, 0, Double.NaN, 0);
        assertThat(EvaluationTable.contained(t)).isEqualTo("-");
    }
}
