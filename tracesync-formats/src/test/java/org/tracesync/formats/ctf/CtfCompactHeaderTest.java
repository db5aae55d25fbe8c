package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LTTng's compact event header (5-bit id, 27-bit timestamp, little-endian bit fields; id 31 =
 * extended with a 32-bit id and 64-bit timestamp): the clock is reconstructed across 27-bit
 * wrap-arounds, checked against the timestamps written and against babeltrace2.
 */
class CtfCompactHeaderTest {

    @TempDir
    Path tmp;

    static final String METADATA = """
            /* CTF 1.8 */
            typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
            typealias integer { size = 27; align = 1; signed = false; } := uint27_t;
            typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
            typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
            trace {
            	major = 1; minor = 8; byte_order = le;
            	packet.header := struct { uint32_t magic; uint32_t stream_id; };
            };
            env { hostname = "compact"; };
            clock { name = "monotonic"; freq = 1000000000; offset_s = 1700000000; offset = 0; };
            typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_monotonic_t;
            typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;
            struct packet_context {
            	uint64_clock_monotonic_t timestamp_begin;
            	uint64_clock_monotonic_t timestamp_end;
            	uint64_t content_size;
            	uint64_t packet_size;
            	uint32_t cpu_id;
            };
            struct event_header_compact {
            	enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
            	variant <id> {
            		struct { uint27_clock_monotonic_t timestamp; } compact;
            		struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;
            	} v;
            } align(8);
            stream { id = 0; event.header := struct event_header_compact; packet.context := struct packet_context; };
            event { name = "tick"; id = 3; stream_id = 0; fields := struct { uint32_t _seq; }; };
            event { name = "tock"; id = 40; stream_id = 0; fields := struct { uint32_t _seq; }; };
            """;

    @Test
    void timestampsSurviveTwentySevenBitWrapArounds() throws Exception {
        Path dir = tmp.resolve("compact");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), METADATA, StandardCharsets.UTF_8);
        CtfDecoderTest.BitWriter w = new CtfDecoderTest.BitWriter();
        w.buf = new byte[1 << 16];
        SplittableRandom r = new SplittableRandom(3);
        long begin = 5_000_000L;
        w.le(0xC1FC1FC1L, 32).le(0, 32);
        w.le(begin, 64).le(0, 64).le(0, 64).le(0, 64).le(0, 32);
        List<Long> written = new ArrayList<>();
        long clock = begin;
        for (int i = 0; i < 2000; i++) {
            long step = switch (r.nextInt(4)) {
                case 0 -> r.nextLong(1000);
                case 1 -> r.nextLong(1L << 26);
                case 2 -> (1L << 27) - 1 - r.nextLong(1000);       // just under one wrap: still compact
                default -> (1L << 27) + r.nextLong(1L << 30);      // more than a wrap: extended header
            };
            long t = clock + step;
            boolean tock = r.nextInt(5) == 0;                      // id 40 needs the extended header
            if (step < (1L << 27) && !tock) {
                w.le(3, 5).le(t & ((1L << 27) - 1), 27);
            } else {
                w.le(31, 5).align(8).le(tock ? 40 : 3, 32).le(t, 64);
            }
            w.align(8).le(i, 32);
            written.add(1_700_000_000_000_000_000L + t);
            clock = t;
        }
        int content = w.pos;
        int packetBytes = (content / 8 + 4095) / 4096 * 4096;
        CtfDecoderTest.BitWriter ctx = new CtfDecoderTest.BitWriter();
        ctx.buf = w.buf;
        ctx.pos = 64 + 64;
        ctx.le(clock, 64).le(content, 64).le(packetBytes * 8L, 64);
        byte[] file = new byte[packetBytes];
        System.arraycopy(w.buf, 0, file, 0, Math.min(w.buf.length, packetBytes));
        Files.write(dir.resolve("channel0_0"), file);

        List<Long> read = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        CtfTrace trace = CtfTrace.open(dir);
        trace.read(e -> {
            read.add(e.timestamp());
            seqs.add(e.longValue(e.eventClass().field("seq")));
        });
        assertThat(read).containsExactlyElementsOf(written);
        assertThat(seqs.get(1999)).isEqualTo(1999);
        assertThat(trace.warnings()).isEmpty();

        SharedCtfData.requireBabeltrace();
        CtfBabeltraceComparisonTest.assertSameAsBabeltrace(dir, tmp);
    }
}
