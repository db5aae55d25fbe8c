package org.tracesync.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The version: from the jar's manifest ({@code Implementation-Version}, which the class loader has
 * read already when it defined this class's package), else (classes run from a directory, as in the tests) from
 * {@code tracesync-version.properties}, which Maven filters.
 */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        String version = VersionProvider.class.getPackage().getImplementationVersion();
        if (version == null) {
            Properties p = new Properties();
            try (InputStream in = VersionProvider.class.getResourceAsStream("/tracesync-version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            version = p.getProperty("version", "unknown");
        }
        // String.concat, not +: the first string concatenation a JVM runs costs it a few ms of set-up
        return new String[] {"tracesync ".concat(version), "Java ".concat(System.getProperty("java.version"))};
    }
}
