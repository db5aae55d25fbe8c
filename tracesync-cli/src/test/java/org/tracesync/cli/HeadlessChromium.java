package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Renders a page in headless Chromium (Debian {@code chromium}) for the report tests. */
public final class HeadlessChromium {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private HeadlessChromium() {
    }

    public static boolean available() {
        return Files.isExecutable(CHROMIUM);
    }

    /**
     * Opens {@code html} (no network: QUIC, background networking, component updates and sync are
     * off; a fresh profile), saves a screenshot to {@code png}, and returns the console messages
     * Chromium logged (any level) — a clean page logs none.
     */
    public static List<String> render(Path html, Path png, int width, int height) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("tracesync-chromium");
        try {
            Files.deleteIfExists(png);
            List<String> cmd = List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                    "--hide-scrollbars", "--screenshot=" + png, "--window-size=" + width + "," + height,
                    html.toUri().toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();
            List<String> console = new ArrayList<>();
            for (String line : output.split("\n")) {
                if (line.contains(":CONSOLE")) {
                    console.add(line);
                }
            }
            assertThat(png).as("screenshot written; chromium said:\n" + output).exists();
            return console;
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
