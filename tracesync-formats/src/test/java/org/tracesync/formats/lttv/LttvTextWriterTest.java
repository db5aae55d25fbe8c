package org.tracesync.formats.lttv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class LttvTextWriterTest {

    @Test
    void secondsHaveExactlyNineFractionDigits() {
        assertThat(LttvTextWriter.seconds(1_795_276_271_431_103_862L)).isEqualTo("1795276271.431103862");
        assertThat(LttvTextWriter.seconds(48_850_000_000L)).isEqualTo("48.850000000");
        assertThat(LttvTextWriter.seconds(7L)).isEqualTo("0.000000007");
        assertThat(LttvTextWriter.seconds(0L)).isEqualTo("0.000000000");
        assertThat(LttvTextWriter.seconds(-500_000_000L)).isEqualTo("-0.500000000");
        assertThat(LttvTextWriter.seconds(-2_000_000_001L)).isEqualTo("-2.000000001");
        assertThat(LttvTextWriter.seconds(Long.MAX_VALUE)).isEqualTo("9223372036.854775807");
    }

    @Test
    void writesCommentsCountAndMessageLines() throws IOException {
        StringWriter w = new StringWriter();
        LttvTextWriter writer = new LttvTextWriter(w, 3, "simulated\nseed 1");
        writer.message(0, 2, 1_700_000_000_000_000_001L, 1_700_000_000_000_100_002L);
        writer.message(2, 1, 5L, 6L);
        assertThat(w.toString()).isEqualTo("""
                # simulated
                # seed 1
                3
                0\t2\t1700000000.000000001\t1700000000.000100002
                2\t1\t0.000000005\t0.000000006
                """);
        assertThatThrownBy(() -> writer.message(3, 0, 1, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
