package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A message id given as bytes inside a larger buffer packs to the same key as the id's string. */
class EventBlockMessageIdTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void bytesInABufferGiveTheStringsKey(long seed) {
        Random r = new Random(seed);
        String alphabet = "abcXYZ0189-_:/é€𝄞";
        for (int k = 0; k < 500; k++) {
            StringBuilder id = new StringBuilder();
            int n = r.nextInt(40);
            for (int i = 0; i < n; i++) {
                id.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
            }
            byte[] bytes = id.toString().getBytes(StandardCharsets.UTF_8);
            int before = r.nextInt(9);
            byte[] buffer = new byte[before + bytes.length + r.nextInt(9)];
            r.nextBytes(buffer);
            System.arraycopy(bytes, 0, buffer, before, bytes.length);

            EventBlock fromString = new EventBlock(1);
            fromString.addMessageId(3, true, 77, id.toString());
            EventBlock fromBytes = new EventBlock(1);
            fromBytes.addMessageId(3, true, 77, buffer, before, bytes.length);
            assertThat(fromBytes.keyA(0)).as(id.toString()).isEqualTo(fromString.keyA(0));
            assertThat(fromBytes.keyB(0)).as(id.toString()).isEqualTo(fromString.keyB(0));
            assertThat(fromBytes.keyC(0)).as(id.toString()).isEqualTo(fromString.keyC(0));
            assertThat(fromBytes.time(0)).isEqualTo(77);
        }
    }
}
