package org.tracesync.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the version Maven filtered into {@code tracesync-version.properties}. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("/tracesync-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {"tracesync " + p.getProperty("version", "unknown"),
                "Java " + System.getProperty("java.version")};
    }
}
