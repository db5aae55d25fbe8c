package org.tracesync.formats.lttv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DigitWords} against a byte-by-byte reading: the count of leading digits and their value,
 * on random words (runs of 0 to 8 digits followed by any byte, 0x00–0xFF, including the bytes
 * ≥ 0xFA whose +6 carries into the next byte and the neighbours of '0' and '9').
 */
class DigitWordsTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void countAndValueEqualAByteByByteReading(long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        byte[] tricky = {'/', ':', ' ', '.', '\n', '#', (byte) 0xFA, (byte) 0xFF, (byte) 0xCA, 0, (byte) 0x80, '\t'};
        byte[] buf = new byte[8];
        for (int n = 0; n < 200_000; n++) {
            int digits = random.nextInt(9);
            for (int i = 0; i < 8; i++) {
                buf[i] = i < digits ? (byte) ('0' + random.nextInt(10))
                        : random.nextBoolean() ? tricky[random.nextInt(tricky.length)] : (byte) random.nextInt(256);
            }
            int expectedCount = 0;
            while (expectedCount < 8 && buf[expectedCount] >= '0' && buf[expectedCount] <= '9') {
                expectedCount++;
            }
            long w = DigitWords.word(buf, 0);
            assertThat(DigitWords.digitCount(w)).as("count of %s", java.util.Arrays.toString(buf)).isEqualTo(expectedCount);
            for (int k = 1; k <= expectedCount; k++) {
                long expected = Long.parseLong(new String(buf, 0, k, java.nio.charset.StandardCharsets.ISO_8859_1));
                assertThat(DigitWords.value(w, k)).as("value of the first %d of %s", k, java.util.Arrays.toString(buf))
                        .isEqualTo(expected);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"00000000", "99999999", "12345678", "90000001", "0", "9", "1 ", "98765432x"})
    void extremesAndShortRuns(String text) {
        byte[] buf = java.util.Arrays.copyOf(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 16);
        long w = DigitWords.word(buf, 0);
        int k = DigitWords.digitCount(w);
        String digits = text.replaceAll("[^0-9].*", "");
        assertThat(k).isEqualTo(Math.min(8, digits.length()));
        assertThat(DigitWords.value(w, k)).isEqualTo(Long.parseLong(digits.substring(0, k)));
    }
}
