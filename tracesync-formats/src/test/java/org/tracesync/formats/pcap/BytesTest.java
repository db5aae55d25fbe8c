package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The byte-array-view reads of {@link Bytes} give what assembling the bytes one by one gives, at
 * every offset (aligned or not), and refuse an index past the array as the per-byte reads did.
 */
class BytesTest {

    private static long bigEndian(byte[] b, int i, int n) {
        long v = 0;
        for (int k = 0; k < n; k++) {
            v = v << 8 | (b[i + k] & 0xffL);
        }
        return v;
    }

    private static long littleEndian(byte[] b, int i, int n) {
        long v = 0;
        for (int k = n - 1; k >= 0; k--) {
            v = v << 8 | (b[i + k] & 0xffL);
        }
        return v;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void readsAgreeWithBytewiseAssembly(long seed) {
        Random rnd = new Random(seed);
        byte[] b = new byte[67];
        rnd.nextBytes(b);
        b[5] = (byte) 0xff; // sign bits set somewhere in every seed
        b[6] = (byte) 0x80;
        for (int i = 0; i + 8 <= b.length; i++) {
            assertThat(Bytes.u16be(b, i)).as("u16be at %d", i).isEqualTo((int) bigEndian(b, i, 2));
            assertThat(Bytes.u16(b, i, true)).isEqualTo((int) bigEndian(b, i, 2));
            assertThat(Bytes.u16(b, i, false)).isEqualTo((int) littleEndian(b, i, 2));
            assertThat(Bytes.i32be(b, i)).as("i32be at %d", i).isEqualTo((int) bigEndian(b, i, 4));
            assertThat(Bytes.i32le(b, i)).as("i32le at %d", i).isEqualTo((int) littleEndian(b, i, 4));
            assertThat(Bytes.u32(b, i, true)).isEqualTo(bigEndian(b, i, 4));
            assertThat(Bytes.u32(b, i, false)).isEqualTo(littleEndian(b, i, 4));
            assertThat(Bytes.u32be(b, i)).isEqualTo(bigEndian(b, i, 4));
            assertThat(Bytes.i64be(b, i)).as("i64be at %d", i).isEqualTo(bigEndian(b, i, 8));
            assertThat(Bytes.i64le(b, i)).as("i64le at %d", i).isEqualTo(littleEndian(b, i, 8));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 61, 62, 63, 64})
    void aReadPastTheArrayThrows(int i) {
        byte[] b = new byte[64];
        assertThatThrownBy(() -> Bytes.i64be(b, i)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Bytes.i64le(b, i)).isInstanceOf(IndexOutOfBoundsException.class);
        if (i < 0 || i > 60) {
            assertThatThrownBy(() -> Bytes.i32be(b, i)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> Bytes.i32le(b, i)).isInstanceOf(IndexOutOfBoundsException.class);
        }
        if (i < 0 || i > 62) {
            assertThatThrownBy(() -> Bytes.u16be(b, i)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
