package org.tracesync.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The driver's check that a capture's parts join up (else the capture is read again whole). */
class PartJoinTest {

    private static PartSpec spec(int file, int part, int parts) {
        return PartSpec.guessed(file, part, parts, "f" + file, "f" + file, part * 100L, (part + 1) * 100L);
    }

    private static PartReport report(int file, int part, long first, long stop, long late) {
        return new PartReport(file, part, first, stop, late, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void partsThatJoinUpAreAccepted() {
        List<PartSpec> specs = List.of(spec(0, 0, 3), spec(0, 1, 3), spec(0, 2, 3), spec(1, 0, 1));
        List<PartReport> reports = List.of(report(0, 0, 24, 130, 0), report(0, 1, 130, 210, 0),
                report(0, 2, 210, 300, 2), report(1, 0, 24, 50, 0));
        assertThat(SparkCaptureSync.inconsistentFiles(specs, reports)).isEmpty();
    }

    @Test
    void aFalseBoundaryABrokenWalkOrALateInterfaceSendsTheCaptureBackWhole() {
        List<PartSpec> specs = List.of(spec(0, 0, 2), spec(0, 1, 2), spec(1, 0, 2), spec(1, 1, 2),
                spec(2, 0, 2), spec(2, 1, 2));
        List<PartReport> reports = List.of(
                report(0, 0, 24, 130, 0), report(0, 1, 120, 300, 0), // part 1 began on a false boundary
                report(1, 0, 24, 130, 0), report(1, 1, 130, PartReport.BROKEN, 0), // part 1 could not be read
                report(2, 0, 24, 130, 1), report(2, 1, 130, 300, 0)); // an interface block in part 0
        assertThat(SparkCaptureSync.inconsistentFiles(specs, reports)).containsExactlyInAnyOrder(0, 1, 2);
    }
}
