package org.tracesync.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe's CTF output decoded by babeltrace2 (the reference decoder): every record of every
 * thread, with its fields, the machine's name, and timestamps in call order per thread.
 */
class ProbeTraceTest {

    @TempDir
    Path tmp;

    @Test
    void babeltraceReadsEveryRecordOfEveryThread() throws Exception {
        Path dir;
        try (Probe probe = Probe.open(tmp, "machine-a", 1 << 12, 5, 20)) {
            int order = probe.event("order");
            int render = probe.event("render");
            assertThat(probe.event("order")).isEqualTo(order);
            Thread[] threads = new Thread[3];
            for (int k = 0; k < threads.length; k++) {
                int base = k * 1000;
                threads[k] = new Thread(() -> {
                    for (int s = 0; s < 500; s++) {
                        probe.step(order, base + s, 1);
                        probe.start(render, base + s);
                        probe.stop(render, base + s);
                        probe.send(base + s);
                        probe.receive(1_000_000_007L * (base + s));
                        probe.step(order, base + s, 2);
                    }
                });
                threads[k].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            dir = probe.directory();
            assertThat(probe.lost()).isZero();
        }
        assertThat(dir.getFileName().toString()).isEqualTo("machine-a-" + ProcessHandle.current().pid());
        assertThat(Files.readString(dir.resolve("metadata"))).contains("hostname = \"machine-a\"")
                .contains("tracer_name = \"tracesync-probe\"");
        List<String> lines = babeltrace(dir);
        Pattern step = Pattern.compile("\\[(\\d+)\\.(\\d{9})\\].* step: \\{ cpu_id|\\[(\\d+)\\.(\\d{9})\\].* step: .*seq = (\\d+), event_id = (\\d+), step = (\\d+) \\}");
        int steps = 0;
        int starts = 0;
        int stops = 0;
        int sends = 0;
        int receives = 0;
        List<String> names = new ArrayList<>();
        boolean bigReceive = false;
        for (String l : lines) {
            if (l.contains(" step: ")) {
                Matcher m = step.matcher(l);
                assertThat(m.find()).as(l).isTrue();
                steps++;
            } else if (l.contains(" simple_start: ")) {
                starts++;
            } else if (l.contains(" simple_stop: ")) {
                stops++;
            } else if (l.contains(" msg_send: ")) {
                sends++;
            } else if (l.contains(" msg_recv: ")) {
                receives++;
                bigReceive |= l.contains("msg = " + 1_000_000_007L * 2499);
            } else if (l.contains(" event_name: ")) {
                names.add(l.replaceAll(".*name = \"([^\"]*)\".*", "$1"));
            }
        }
        assertThat(steps).isEqualTo(3000);
        assertThat(starts).isEqualTo(1500);
        assertThat(stops).isEqualTo(1500);
        assertThat(sends).isEqualTo(1500);
        assertThat(receives).isEqualTo(1500);
        assertThat(bigReceive).isTrue();
        assertThat(names).containsExactly("order", "render");
        assertThat(lines).anyMatch(l -> l.contains(" clock_offset: "));
    }

    @Test
    void epochOffsetIsRealtimeMinusMonotonic() {
        EpochOffset e = EpochOffset.sample();
        long realtime = System.currentTimeMillis() * 1_000_000L;
        long fromProbe = System.nanoTime() + e.offset();
        assertThat(Math.abs(fromProbe - realtime)).isLessThan(50_000_000L);
        assertThat(e.uncertainty()).isBetween(0L, 1_000_000L);
    }

    static List<String> babeltrace(Path dir) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("babeltrace2", "--clock-seconds", "--no-delta", dir.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("babeltrace2 is not installed (.ci/run installs it): " + e.getMessage());
            throw e;
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text.lines().limit(20).toList().toString()).isZero();
        return text.lines().toList();
    }
}
