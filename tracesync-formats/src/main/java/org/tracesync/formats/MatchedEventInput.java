package org.tracesync.formats;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.KeyMatcher;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.core.model.NodeInfo;

/**
 * Event traces (one {@link NetEventSource} per node) joined into messages by a {@link KeyMatcher}
 * (DESIGN §1 stages 1–2).
 */
public final class MatchedEventInput implements MessageInput {

    private final List<NetEventSource> sources;
    private final List<NodeInfo> nodes;
    private final List<String> warnings = new ArrayList<>();

    public MatchedEventInput(List<NetEventSource> sources) {
        this.sources = List.copyOf(sources);
        List<NodeInfo> list = new ArrayList<>();
        for (NetEventSource s : sources) {
            list.add(s.node());
        }
        this.nodes = List.copyOf(list);
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        KeyMatcher matcher = new KeyMatcher();
        for (int i = 0; i < sources.size(); i++) {
            sources.get(i).stream(matcher.sinkFor(i));
        }
        matcher.finish(sink);
        warnings.clear();
        for (NetEventSource s : sources) {
            for (String w : s.warnings()) {
                warnings.add(s.node().name() + ": " + w);
            }
        }
        if (matcher.ambiguous() > 0) {
            warnings.add(matcher.ambiguous() + " keys sent or received more than once (retransmissions, duplicates) were dropped");
        }
        if (matcher.sameNode() > 0) {
            warnings.add(matcher.sameNode() + " messages between a node and itself were discarded");
        }
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
