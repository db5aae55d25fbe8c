package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.pcap.CaptureReader;

/**
 * Issue #13: captures around a backward clock step, end to end (simulate, sync, apply, eval). h2's
 * clock steps back by 4.09 ms at true time 1700000316.3139 s (seed 1), so h2 read the local
 * times from 1700000315.3116 s on twice. Its packet at local 1700000315.315521018 (a segment h1
 * received at 1700000316.303775040) came before the step; by its local time alone it was mapped
 * with the segment after the step, 4 ms late, and arrived before it was sent. In file order the
 * capture shows no sign of a step yet, so apply maps it before the step.
 */
class BackwardStepApplyTest {

    private static final long SENT = 1_700_000_315_315_521_018L; // on h2
    private static final long RECEIVED = 1_700_000_316_303_775_040L; // on h1

    @TempDir
    Path dir;

    @Test
    void aPacketBeforeABackwardStepStaysBeforeItsReceiveInTheSynchronizedCopies() throws IOException {
        Path sim = dir.resolve("sim");
        CommandRun s = CommandRun.of("simulate", "-o", sim.toString(), "--nodes", "2", "--rate", "50", "--format", "pcap",
                "--duration", "20m", "--steps", "2", "--seed", "1");
        assertThat(s.exitCode()).as(s.err()).isZero();
        Path h1 = sim.resolve("h1.pcapng");
        Path h2 = sim.resolve("h2.pcapng");
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", h1.toString(), h2.toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("(2 steps)");
        CommandRun eval = CommandRun.of("eval", result.toString(), h1.toString(), h2.toString(), "--truth",
                sim.resolve("truth.json").toString());
        assertThat(eval.exitCode()).as(eval.out() + eval.err()).isZero();
        assertThat(eval.out()).contains("no inversion");

        Path out = dir.resolve("synced");
        CommandRun apply = CommandRun.of("apply", result.toString(), h1.toString(), h2.toString(), "--out", out.toString());
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        long[][] original2 = timestamps(h2);
        long[][] synced2 = timestamps(out.resolve("h2.pcapng"));
        long[][] original1 = timestamps(h1);
        long[][] synced1 = timestamps(out.resolve("h1.pcapng"));
        long sent = synced2[0][indexOf(original2[0], SENT)];
        long received = synced1[0][indexOf(original1[0], RECEIVED)];
        assertThat(sent).isLessThan(received);
        // each copy keeps its capture's order
        for (long[] t : new long[][] {synced1[0], synced2[0]}) {
            for (int i = 1; i < t.length; i++) {
                assertThat(t[i]).as("packet %d", i).isGreaterThanOrEqualTo(t[i - 1]);
            }
        }
    }

    /**
     * The report counts inversions as eval does: the same trace as text, where h2's packet above
     * (node 1's send at local 1700000315.315521018) was counted as received before it was sent.
     */
    @Test
    void theReportCountsNoInversionAroundTheSteps() throws IOException {
        Path sim = dir.resolve("text");
        CommandRun s = CommandRun.of("simulate", "-o", sim.toString(), "--nodes", "2", "--rate", "50", "--format", "text",
                "--duration", "20m", "--steps", "2", "--seed", "1");
        assertThat(s.exitCode()).as(s.err()).isZero();
        Path messages = sim.resolve("messages.txt");
        Path result = dir.resolve("text.json");
        CommandRun sync = CommandRun.of("sync", messages.toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        assertThat(sync.out() + sync.err()).doesNotContain("moved");
        // the repair pass ran (a bucket holds a step) and found nothing inverted
        assertThat(java.nio.file.Files.readString(result)).contains("\"repair_inversions_before\" : 0");
        Path page = dir.resolve("report.html");
        CommandRun report = CommandRun.of("report", result.toString(), messages.toString(), "-o", page.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        assertThat(java.nio.file.Files.readString(page)).contains("<line class=\"step\"").doesNotContain("received before they were sent")
                .doesNotContain("inversions after correction");
    }

    private static int indexOf(long[] times, long t) {
        for (int i = 0; i < times.length; i++) {
            if (times[i] == t) {
                return i;
            }
        }
        throw new AssertionError("no packet at " + t);
    }

    private static long[][] timestamps(Path capture) throws IOException {
        List<Long> t = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(capture)) {
            while (r.next()) {
                t.add(r.timestamp());
            }
        }
        return new long[][] {t.stream().mapToLong(Long::longValue).toArray()};
    }
}
