package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.TraceFormatException;

/**
 * Decodes a hand-assembled big-endian trace (metadata: the {@code constructs.tsdl} fuzz seed):
 * sub-byte big- and little-endian bit fields, signed 3-bit values, enums with implicit values and
 * ranges, variants selecting int / string / double / empty struct, sequences of structs,
 * multi-dimensional arrays, a sequence whose length is in the stream event context, floats, and a
 * non-GHz clock converted exactly.
 */
class CtfDecoderTest {

    @TempDir
    Path tmp;

    /** Appends bits as CTF lays them out: big-endian fields from the MSB of each byte, little-endian from the LSB. */
    static final class BitWriter {
        byte[] buf = new byte[4096];
        int pos;

        BitWriter align(int bits) {
            pos = (pos + bits - 1) / bits * bits;
            return this;
        }

        BitWriter be(long v, int size) {
            for (int i = size - 1; i >= 0; i--) {
                if (((v >>> i) & 1) != 0) {
                    buf[pos >>> 3] |= (byte) (1 << (7 - (pos & 7)));
                }
                pos++;
            }
            return this;
        }

        BitWriter le(long v, int size) {
            for (int i = 0; i < size; i++) {
                if (((v >>> i) & 1) != 0) {
                    buf[pos >>> 3] |= (byte) (1 << (pos & 7));
                }
                pos++;
            }
            return this;
        }

        BitWriter bytes(byte[] b) {
            for (byte x : b) {
                be(x & 0xFF, 8);
            }
            return this;
        }
    }

    static void event(BitWriter w, long ts, int kind, Runnable variant) {
        w.be(7, 8).be(ts, 64);          // header: id, timestamp (64-bit, byte-aligned)
        w.be(2, 32);                     // stream event context: tid (int, align 8)
        w.align(32);                     // the payload struct is aligned as its most aligned member (f)
        w.be(kind, 8);                   // kind
        variant.run();                   // v
        w.be(-3 & 7, 3).be(22, 5);       // small = -3, rest = 22 (one byte, MSB first)
        w.le(0x1ABC, 13).le(5, 3);       // odd, tail (two bytes, LSB first)
        w.be(2, 8);                      // n
        w.be(1, 8).be(-100 & 0xFFFFFFFFL, 32);            // points[0] ('int' is byte-aligned)
        w.be(2, 8).be(100000, 32);                        // points[1]
        w.align(32).be(Float.floatToIntBits(1.5f), 32);   // f
        w.bytes(new byte[] {1, 2, 3, 4, 5, 6});           // raw[2][3]
        w.be(7, 32).be(-8 & 0xFFFFFFFFL, 32);             // stream_tid_copy[tid = 2]
    }

    Path writeTrace(boolean badTag) throws Exception {
        Path dir = tmp.resolve(badTag ? "bad" : "good");
        Files.createDirectories(dir);
        Files.write(dir.resolve("metadata"), TsdlParserTest.seed("constructs.tsdl"));
        BitWriter w = new BitWriter();
        w.be(0xC1FC1FC1L, 32).be(3, 32);       // packet header
        w.be(0, 32).be(0, 32).be(4_000_000, 64); // context: content_size, packet_size (patched), timestamp_begin
        event(w, 5_000_000, 1, () -> w.bytes("hi".getBytes()).be(0, 8));
        event(w, 6_000_000, 10, () -> w.align(64).be(Double.doubleToLongBits(2.25), 64));
        event(w, 7_000_000, 0, () -> w.be(-42 & 0xFFFFFFFFL, 32));
        event(w, 8_000_000, badTag ? 40 : 11, () -> { });
        int content = w.pos;
        int packet = (content + 7) / 8 * 8;
        BitWriter sizes = new BitWriter();
        sizes.buf = w.buf;
        sizes.pos = 64;
        sizes.be(content, 32).be(packet, 32);
        byte[] file = new byte[packet / 8];
        System.arraycopy(w.buf, 0, file, 0, file.length);
        Files.write(dir.resolve("stream_3"), file);
        return dir;
    }

    static long ns(long cycles) {
        BigInteger c = BigInteger.valueOf(7 + cycles).multiply(BigInteger.valueOf(1_000_000_000L))
                .divide(BigInteger.valueOf(1234567));
        return 10_000_000_000L + c.longValueExact();
    }

    @Test
    void decodesEveryConstruct() throws Exception {
        CtfTrace t = CtfTrace.open(writeTrace(false));
        List<String> seen = new ArrayList<>();
        t.read(e -> {
            CtfEventClass ec = e.eventClass();
            assertThat(ec.name()).isEqualTo("kinds");
            String v = switch (e.enumLabel(ec.field("kind"))) {
                case "A" -> "A:" + e.longValue(ec.field("v.A"));
                case "B" -> "B:" + e.stringValue(ec.field("v.B"));
                case "C" -> "C:" + e.doubleValue(ec.field("v.C"));
                case "D" -> "D";
                default -> "?";
            };
            seen.add(e.timestamp() + " " + v + " tid=" + e.longValue(ec.field("tid"))
                    + " small=" + e.longValue(ec.field("small")) + " rest=" + e.longValue(ec.field("rest"))
                    + " odd=" + Long.toHexString(e.longValue(ec.field("odd"))) + " tail=" + e.longValue(ec.field("tail"))
                    + " n=" + e.longValue(ec.field("n")) + " last.y=" + e.longValue(ec.field("points[].y"))
                    + " f=" + e.doubleValue(ec.field("f")) + " raw=" + java.util.Arrays.toString(e.bytes(ec.field("raw")))
                    + " copy=" + java.util.Arrays.toString(e.bytes(ec.field("stream_tid_copy"))));
        });
        String tail = " tid=2 small=-3 rest=22 odd=1abc tail=5 n=2 last.y=100000 f=1.5 raw=[1, 2, 3, 4, 5, 6]"
                + " copy=[0, 0, 0, 7, -1, -1, -1, -8]";
        assertThat(seen).containsExactly(
                ns(5_000_000) + " B:hi" + tail,
                ns(6_000_000) + " C:2.25" + tail,
                ns(7_000_000) + " A:-42" + tail,
                ns(8_000_000) + " D" + tail);
    }

    @Test
    void babeltraceAgrees() throws Exception {
        SharedCtfData.requireBabeltrace();
        CtfBabeltraceComparisonTest.assertSameAsBabeltrace(writeTrace(false), tmp);
    }

    @Test
    void aTagWithoutOptionIsAnErrorAtTheEvent() throws Exception {
        CtfTrace t = CtfTrace.open(writeTrace(true));
        assertThatThrownBy(() -> t.read(e -> { }))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("stream_3:offset ")
                .hasMessageContaining("variant 'v': tag value 40 selects no option");
    }
}
