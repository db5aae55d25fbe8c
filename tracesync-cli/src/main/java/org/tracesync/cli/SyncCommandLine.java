package org.tracesync.cli;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The commonest {@code sync} command lines run without picocli:
 * {@code [--debug] sync TRACE... [-o|--output FILE] [-q|--quiet] [--all-pairs] [--debug]}, each option
 * at most once, in any order. Any other command line (another option, a value given with {@code =} or
 * attached, clustered short options, {@code --}, an {@code @file}, an argument that starts with {@code -}
 * or {@code @}, help, a mistake, a {@code picocli.*} system property) is picocli's, unchanged.
 *
 * <p>Why: picocli's first model costs a 2-message {@code sync} a third of its CPU (its classes linked, its
 * first regular expressions and method handles; docs/PERFORMANCE.md, "Start", seventh session), more than
 * the synchronization. What holds: the command's fields are what picocli's parse sets (the defaults come
 * from {@link PrebuiltCommandSpecs#syncDefaults}, generated from the annotations), and running it prints,
 * writes and exits as picocli's run does, usage and execution errors included ({@code SyncCommandLineTest}
 * compares both on every command line it accepts and on near misses). Cost: one pass over the arguments.
 */
final class SyncCommandLine {

    private SyncCommandLine() {
    }

    /** {@code args} as a {@code sync} command ready to run, or null when they are not one of the lines above. */
    static SyncCommand parse(String[] args) {
        int i = 0;
        boolean debug = false;
        if (i < args.length && args[i].equals("--debug")) {
            debug = true;
            i++;
        }
        if (i >= args.length || !args[i].equals("sync")) {
            return null;
        }
        i++;
        List<Path> inputs = new ArrayList<>();
        Path output = null;
        boolean quiet = false;
        boolean allPairs = false;
        for (; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-o", "--output" -> {
                    if (output != null || i + 1 == args.length) {
                        return null;
                    }
                    output = path(args[++i]);
                    if (output == null) {
                        return null;
                    }
                }
                case "-q", "--quiet" -> {
                    if (quiet) {
                        return null;
                    }
                    quiet = true;
                }
                case "--all-pairs" -> {
                    if (allPairs) {
                        return null;
                    }
                    allPairs = true;
                }
                case "--debug" -> {
                    if (debug) {
                        return null;
                    }
                    debug = true;
                }
                default -> {
                    Path input = path(a);
                    if (input == null) {
                        return null;
                    }
                    inputs.add(input);
                }
            }
        }
        if (inputs.isEmpty() || picocliPropertySet()) {
            return null;
        }
        SyncCommand command = new SyncCommand();
        PrebuiltCommandSpecs.syncDefaults(command);
        command.inputs = inputs;
        command.output = output;
        command.quiet = quiet;
        command.allPairs = allPairs;
        return command;
    }

    /**
     * An argument as picocli converts a {@code Path} (its {@code Paths.get}), or null for one picocli could
     * take otherwise (an option, an {@code @file}, an empty string) or not convert.
     */
    private static Path path(String a) {
        if (a.isEmpty() || a.charAt(0) == '-' || a.charAt(0) == '@') {
            return null;
        }
        try {
            return Path.of(a);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** Whether a {@code picocli.*} system property is set (one could change how picocli parses or prints). */
    private static boolean picocliPropertySet() {
        for (Object key : System.getProperties().keySet()) {
            if (key instanceof String name && name.startsWith("picocli.")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs {@code command} (from {@link #parse}) as picocli's {@code execute} runs it: its exit code; a usage
     * error or a failure reported by {@link TracesyncCommand}'s handlers on {@code err}; an
     * {@link OutOfMemoryError} turned into its one line; other errors thrown.
     */
    static int execute(SyncCommand command, String[] args, PrintWriter out, PrintWriter err) {
        command.out = out;
        command.err = err;
        try {
            return command.call();
        } catch (CommandLine.ParameterException e) {
            return TracesyncCommand.handleParameterException(e, args, err);
        } catch (Exception e) {
            return TracesyncCommand.handleExecutionException(e, err, TracesyncCommand.debug(args));
        } catch (OutOfMemoryError e) {
            return TracesyncCommand.outOfMemory(e, err, TracesyncCommand.debug(args));
        }
    }

    /** picocli's standard output writer: {@code System.out} in the encoding picocli chooses. */
    static PrintWriter out() {
        return writer(System.out, "sun.stdout.encoding");
    }

    /** picocli's standard error writer. */
    static PrintWriter err() {
        return writer(System.err, "sun.stderr.encoding");
    }

    /**
     * As picocli 4.7 makes its writers: buffered, flushed at each line, in the charset the property names
     * (cp65001 meaning UTF-8), else (unset or unknown) the default charset.
     */
    private static PrintWriter writer(OutputStream stream, String property) {
        return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stream, charset(System.getProperty(property)))), true);
    }

    static Charset charset(String name) {
        if (name == null) {
            return Charset.defaultCharset();
        }
        try {
            return Charset.forName("cp65001".equalsIgnoreCase(name) ? "UTF-8" : name);
        } catch (Exception e) {
            return Charset.defaultCharset();
        }
    }
}
