package org.tracesync.core.model;

/**
 * The caller asked for something impossible with these inputs (an unknown reference node, a name
 * count that does not match the traces, two traces given one node name): a user's mistake that a
 * command line reports as a usage error. Every other {@link IllegalArgumentException} from the
 * library is a broken internal invariant, i.e. a bug.
 */
public class InvalidRequestException extends IllegalArgumentException {

    public InvalidRequestException(String message) {
        super(message);
    }
}
