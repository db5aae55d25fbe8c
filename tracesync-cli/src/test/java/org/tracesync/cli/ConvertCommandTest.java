package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.result.ResultFile;

/**
 * {@code convert --to ctf}: the real three-hosts captures become LTTng-2.9-style kernel traces
 * (the layout no public trace has); babeltrace2 reads every event, and synchronizing the CTF traces
 * gives the same clocks as synchronizing the captures.
 */
class ConvertCommandTest {

    @TempDir
    Path tmp;

    @Test
    void capturesConvertedToCtfSynchronizeLikeTheCaptures() throws Exception {
        Path dir = CaptureEndToEndTest.threeHosts();
        Path out = tmp.resolve("ctf");
        String[] captures = {dir.resolve("h1.pcap").toString(), dir.resolve("h2.pcap").toString(),
            dir.resolve("h3.pcap").toString()};
        String[] args = new String[captures.length + 4];
        args[0] = "convert";
        args[1] = "--to";
        args[2] = "ctf";
        System.arraycopy(captures, 0, args, 3, captures.length);
        args[args.length - 1] = "--out=" + out;
        InspectCommandTest.Run c = InspectCommandTest.run(args);
        assertThat(c.code()).as(c.err()).isZero();
        assertThat(c.out()).contains("h2: ").contains("own addresses [10.200.2.1]");
        long h2Packets = Long.parseLong(c.out().replaceAll("(?s).*h2: [^(]*\\((\\d+) packets.*", "$1"));

        if (CtfSyncApplyTest.babeltraceInstalled()) {
            List<String> events = CtfSyncApplyTest.babeltrace(out.resolve("h2"), tmp);
            // + the statedump: its interface event and lttng_statedump_end
            assertThat(events).hasSize((int) h2Packets + 2);
        } else if ("1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
            fail("babeltrace2 not installed");
        }

        Path fromCtf = tmp.resolve("ctf.json");
        Path fromPcap = tmp.resolve("pcap.json");
        assertThat(InspectCommandTest.run("sync", out.resolve("h1").toString(), out.resolve("h2").toString(),
                out.resolve("h3").toString(), "-o", fromCtf.toString(), "-q").code()).isZero();
        String[] syncPcap = new String[captures.length + 4];
        syncPcap[0] = "sync";
        System.arraycopy(captures, 0, syncPcap, 1, captures.length);
        syncPcap[captures.length + 1] = "-o";
        syncPcap[captures.length + 2] = fromPcap.toString();
        syncPcap[captures.length + 3] = "-q";
        assertThat(InspectCommandTest.run(syncPcap).code()).isZero();
        SyncResult a = ResultFile.read(fromCtf);
        SyncResult b = ResultFile.read(fromPcap);
        assertThat(a.reference()).isEqualTo(b.reference());
        for (NodeResult n : b.nodes()) {
            NodeResult m = a.node(n.name());
            assertThat(m.quality()).isIn(Quality.ACCURATE, Quality.REFERENCE).isEqualTo(n.quality());
            long mid = (n.start() + n.end()) / 2;
            assertThat(m.transform().correction(mid)).isCloseTo(n.transform().correction(mid),
                    org.assertj.core.api.Assertions.within(1.0));
        }
        assertThat(Files.exists(out.resolve("h1/metadata"))).isTrue();
    }

    @Test
    void notACaptureIsAnInputError() throws Exception {
        Path bogus = Files.writeString(tmp.resolve("x.pcap"), "not a capture");
        InspectCommandTest.Run c = InspectCommandTest.run("convert", "--to", "ctf", bogus.toString(), "--out", tmp.resolve("o").toString());
        assertThat(c.code()).isEqualTo(3);
        assertThat(c.err()).contains("x.pcap").contains("not a pcap or pcapng capture");
    }
}
