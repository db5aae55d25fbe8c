package org.tracesync.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.pcap.CapturePart;
import org.tracesync.formats.pcap.CaptureReader;

/**
 * The boundary pass's task: walks one re-synchronized part record by record without decoding
 * packets, and reports where it began and stopped (for the join check) and its largest
 * timestamp (the next parts' carry). A part that met unreadable bytes after re-synchronizing is
 * reported {@link PartReport#BROKEN} (its capture is then read whole, which tells a false boundary
 * from a damaged file); any other read error is the capture's and fails the job.
 *
 * <p>Cost: one sequential read of the part; O(1) per record, no allocation per record.
 */
final class PartWalk {

    private PartWalk() {
    }

    static PartReport walk(PartSpec spec, Map<String, String> hadoopConf) {
        Configuration conf = new Configuration(false);
        hadoopConf.forEach(conf::set);
        CapturePart part;
        try {
            part = CapturePart.open(Path.of(spec.name()), new HadoopFileChannel(spec.uri(), conf), spec.start(),
                    spec.end(), spec.boundary());
        } catch (IOException e) {
            throw new CaptureInputError(message(spec, e));
        }
        long packets = 0;
        long first = Long.MIN_VALUE;
        long last = Long.MIN_VALUE;
        long max = Long.MIN_VALUE;
        try (part) {
            CaptureReader r = part.reader();
            while (r.next()) {
                long t = r.timestamp();
                if (packets++ == 0) {
                    first = t;
                }
                last = t;
                max = Math.max(max, t);
            }
            return new PartReport(spec.file(), spec.part(), part.firstRecord(), part.stopOffset(),
                    part.lateHeaderBlocks(), packets, 0, 0, 0, 0, first, last, max);
        } catch (IOException e) {
            if (!part.resynchronized()) {
                throw new CaptureInputError(message(spec, e));
            }
            return new PartReport(spec.file(), spec.part(), part.firstRecord(), PartReport.BROKEN, 0, packets, 0,
                    0, 0, 0, first, last, max);
        }
    }

    static String message(PartSpec spec, IOException e) {
        return e instanceof TraceFormatException || e.getMessage() == null
                ? String.valueOf(e.getMessage()) : spec.name() + ": " + e.getMessage();
    }
}
