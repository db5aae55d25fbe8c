package org.tracesync.cli;

import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.Map;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.TraceSetException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code tracesync} command: subcommands do the work.
 *
 * <p>Start cost: picocli builds a command's model by reflection over its annotations (about 2–25 ms
 * of CPU per command at start, before the JIT), so {@link #main} builds only what the command line
 * names ({@link #newCommandLine(String[])}): {@code tracesync sync …} gets the top command and
 * {@code sync}, and their models without reflection, from {@link PrebuiltCommandSpecs} (builder calls
 * generated from the annotations); another named command gets the top command and itself, by
 * reflection. Every other command line (usage, {@code help}, a mistyped command) gets the whole
 * hierarchy, {@link #newCommandLine()}, so what is printed is the same either way; and
 * {@code tracesync --version} prints its two lines without any model ({@link #isVersionAlone}), and the
 * commonest {@code sync} lines run without picocli at all ({@link SyncCommandLine}).
 * docs/PERFORMANCE.md ("Start") has the figures.
 */
@Command(name = "tracesync", mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Synchronizes traces recorded on machines whose clocks disagree.")
public final class TracesyncCommand implements java.util.concurrent.Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--debug", scope = ScopeType.INHERIT,
            description = "On errors, print the stack trace too.")
    boolean debug;

    /** {@code tracesync} alone: the usage on stderr, and a usage error (a command is required). */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        spec.commandLine().getErr().println("tracesync: give a command (see 'tracesync --help')");
        spec.commandLine().getErr().flush();
        return ExitCode.USAGE;
    }

    public static void main(String[] args) {
        if (isVersionAlone(args)) { // no command model needed: the JVM's start is all it costs
            PrintWriter out = new PrintWriter(System.out, true);
            System.exit(printVersion(out, new PrintWriter(System.err, true)));
        }
        SyncCommand sync = SyncCommandLine.parse(args); // the commonest sync lines, without picocli's model
        if (sync != null) {
            System.exit(SyncCommandLine.execute(sync, args, SyncCommandLine.out(), SyncCommandLine.err()));
        }
        for (Map.Entry<String, String> setting : PICOCLI_SETTINGS.entrySet()) {
            if (System.getProperty(setting.getKey()) == null) {
                System.setProperty(setting.getKey(), setting.getValue());
            }
        }
        System.exit(execute(newCommandLine(args), args));
    }

    /**
     * picocli's switches that {@link #main} sets (unless given with {@code -D}) to start faster
     * (docs/PERFORMANCE.md, "Start"): no Groovy closures (else picocli's factory looks for
     * {@code groovy.lang.Closure} on the whole class path, which opens tracesync.jar behind
     * bin/tracesync's start jar), and no converters for java.sql and java.time types, which no option
     * has (else every command line looks up 18 such classes and their parse methods by reflection; one
     * regular expression, as picocli compiles each for each class it could register).
     */
    static final Map<String, String> PICOCLI_SETTINGS = Map.of("picocli.disable.closures", "true",
            "picocli.converters.excludes", "java\\.(sql|time)\\..*");

    /** {@code --version} or {@code -V}, with {@code --debug} at most: the version is all that is printed. */
    static boolean isVersionAlone(String[] args) {
        int version = 0;
        for (String arg : args) {
            switch (arg) {
                case "--version", "-V" -> version++;
                case "--debug" -> { }
                default -> {
                    return false;
                }
            }
        }
        return version == 1;
    }

    /** What picocli prints for {@code --version} (our version lines hold no format specifiers or markup). */
    static int printVersion(PrintWriter out, PrintWriter err) {
        try {
            for (String line : new VersionProvider().getVersion()) {
                out.println(line);
            }
            out.flush();
            return ExitCode.OK;
        } catch (java.io.IOException e) {
            err.println("tracesync: cannot read the version: " + e.getMessage());
            err.flush();
            return ExitCode.INTERNAL;
        }
    }

    /** The subcommands' names, in the order the usage lists them. */
    static final String[] SUBCOMMANDS = {"sync", "inspect", "eval", "apply", "convert", "report", "simulate",
        "simulate-spans", "demo", "skew", "latency", "help"};

    /** A new instance of the subcommand called {@code name} (one of {@link #SUBCOMMANDS}), null for another name. */
    static Object newSubcommand(String name) {
        return switch (name) {
            case "sync" -> new SyncCommand();
            case "inspect" -> new InspectCommand();
            case "eval" -> new EvalCommand();
            case "apply" -> new ApplyCommand();
            case "convert" -> new ConvertCommand();
            case "report" -> new ReportCommand();
            case "simulate" -> new SimulateCommand();
            case "simulate-spans" -> new SimulateSpansCommand();
            case "demo" -> new DemoCommand();
            case "skew" -> new SkewCommand();
            case "latency" -> new LatencyCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> null;
        };
    }

    /**
     * Runs {@code cl} on {@code args}, turning an {@link OutOfMemoryError} (which picocli does not
     * handle) into one line with the remedy and {@link ExitCode#OUT_OF_MEMORY}.
     */
    static int execute(CommandLine cl, String[] args) {
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            return outOfMemory(e, cl.getErr(), debug(args));
        }
    }

    /** The one line an exhausted heap gets (the work's data is unreachable by now, so printing is safe). */
    static int outOfMemory(OutOfMemoryError e, PrintWriter err, boolean debug) {
        long max = Runtime.getRuntime().maxMemory();
        String heap = max == Long.MAX_VALUE ? "the maximum heap" : "the " + (max >> 20) + " MB heap";
        err.println("tracesync: out of memory (" + heap + " is full: " + e.getMessage() + "); rerun with more,"
                + " e.g. TRACESYNC_JAVA_OPTS=-Xmx" + suggestedHeap(max) + " bin/tracesync …");
        if (debug) {
            e.printStackTrace(err);
        }
        err.flush();
        return ExitCode.OUT_OF_MEMORY;
    }

    /** Four times the current maximum heap, in whole GB (at least 4g). */
    static String suggestedHeap(long max) {
        long gb = max == Long.MAX_VALUE ? 4 : Math.max(4, (4 * max + (1L << 30) - 1) >> 30);
        return gb + "g";
    }

    /** The whole command hierarchy: the top command and every subcommand. */
    public static CommandLine newCommandLine() {
        return withSubcommands(SUBCOMMANDS);
    }

    /**
     * The part of the hierarchy that {@code args} reach, which parses and prints as the whole one
     * does: the top command and one subcommand when {@code args} name it first (after {@code --debug}
     * at most; not {@code help}, which lists the others); the top command alone for {@code --version}
     * or {@code -V} (with {@code --debug} at most); else the whole hierarchy.
     */
    public static CommandLine newCommandLine(String[] args) {
        boolean version = false;
        for (String arg : args) {
            switch (arg) {
                case "--debug" -> { }
                case "--version", "-V" -> version = true;
                default -> {
                    boolean named = !version && !arg.equals("help") && !arg.startsWith("-") && newSubcommand(arg) != null;
                    return named && arg.equals("sync") ? prebuiltSync() : withSubcommands(named ? new String[] {arg} : SUBCOMMANDS);
                }
            }
        }
        return withSubcommands(version ? new String[0] : SUBCOMMANDS);
    }

    /**
     * The top command and {@code sync}, their models built by {@link PrebuiltCommandSpecs} (plain calls
     * generated from the annotations) instead of by reflection: the same model without reading annotations
     * (docs/PERFORMANCE.md, "Start").
     */
    static CommandLine prebuiltSync() {
        CommandLine cl = new CommandLine(PrebuiltCommandSpecs.tracesync(new TracesyncCommand()));
        cl.addSubcommand("sync", PrebuiltCommandSpecs.sync(new SyncCommand()));
        return withHandlers(cl);
    }

    /** The top command and {@code subcommands}, their models built by picocli's reflection over the annotations. */
    static CommandLine withSubcommands(String[] subcommands) {
        CommandLine cl = new CommandLine(new TracesyncCommand());
        for (String name : subcommands) {
            cl.addSubcommand(name, newSubcommand(name));
        }
        return withHandlers(cl);
    }

    private static CommandLine withHandlers(CommandLine cl) {
        Handlers handlers = new Handlers(cl);
        cl.setExecutionExceptionHandler(handlers);
        cl.setParameterExceptionHandler(handlers);
        return cl;
    }

    /**
     * The exception handlers, as a class rather than a lambda and a method reference: every
     * {@code sync} links them, and a lambda's first use costs its call site's linkage, about a
     * millisecond of the start each (docs/PERFORMANCE.md, "Start", sixth session).
     */
    private static final class Handlers implements CommandLine.IExecutionExceptionHandler,
            CommandLine.IParameterExceptionHandler {
        private final CommandLine cl;

        Handlers(CommandLine cl) {
            this.cl = cl;
        }

        @Override
        public int handleExecutionException(Exception ex, CommandLine commandLine, CommandLine.ParseResult parseResult) {
            return TracesyncCommand.handleExecutionException(ex, commandLine, parseResult);
        }

        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            return handleParameterException(ex, args, cl.getErr());
        }
    }

    /** Exit codes (see {@link ExitCode}): 1 partial/impossible synchronization, 2 usage, 3 input error. */
    public static final int EXIT_PARTIAL = ExitCode.SYNC_INCOMPLETE;
    public static final int EXIT_USAGE = ExitCode.USAGE;
    public static final int EXIT_INPUT = ExitCode.INPUT;

    static boolean debug(String[] args) {
        return Arrays.asList(args).contains("--debug");
    }

    /**
     * Bad command lines: one line on stderr naming the problem and where to find the usage, exit
     * {@link ExitCode#USAGE}.
     */
    public static int handleParameterException(CommandLine.ParameterException ex, String[] args, PrintWriter err) {
        // a command may raise this with a CommandLine of its own (not in our hierarchy): name it fully
        String name = ex.getCommandLine().getCommandSpec().qualifiedName();
        if (!name.startsWith("tracesync")) {
            name = "tracesync " + name;
        }
        err.println(name + ": " + ex.getMessage() + " (see '" + name + " --help')");
        if (debug(args)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ExitCode.USAGE;
    }

    /**
     * Failures while a command runs: user mistakes and bad inputs give one line on stderr and their
     * documented exit code; anything else is a bug ({@link ExitCode#INTERNAL}). {@code --debug}
     * adds the stack trace.
     */
    public static int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
        return handleExecutionException(ex, cl.getErr(), debug(parseResult.originalArgs().toArray(new String[0])));
    }

    /** {@link #handleExecutionException(Exception, CommandLine, CommandLine.ParseResult)} on {@code err}, the stack trace when {@code debug}. */
    static int handleExecutionException(Exception ex, PrintWriter err, boolean debug) {
        int code;
        String message;
        if (ex instanceof CommandFailure f) {
            code = f.exitCode();
            message = f.getMessage();
        } else if (ex instanceof TraceFormatException) {
            code = ExitCode.INPUT;
            message = ex.getMessage();
        } else if (ex instanceof NoSuchFileException e) {
            code = ExitCode.INPUT;
            message = e.getFile() + ": no such file or directory";
        } else if (ex instanceof AccessDeniedException e) {
            code = ExitCode.INPUT;
            message = e.getFile() + ": permission denied";
        } else if (ex instanceof FileSystemException e) {
            code = ExitCode.INPUT;
            message = e.getFile() + ": " + (e.getReason() != null ? e.getReason()
                    : e instanceof java.nio.file.FileAlreadyExistsException ? "already exists"
                    : e instanceof java.nio.file.NotDirectoryException ? "not a directory"
                    : e instanceof java.nio.file.DirectoryNotEmptyException ? "directory not empty"
                    : "cannot be read or written");
        } else if (ex instanceof java.io.UncheckedIOException u && u.getCause() != null) {
            return handleExecutionException(u.getCause(), err, debug);
        } else if (ex instanceof java.io.IOException) {
            code = ExitCode.INPUT;
            message = ex.getMessage() == null ? ex.toString() : ex.getMessage();
        } else if (ex instanceof CommandLine.ParameterException || ex instanceof TraceSetException) {
            code = ExitCode.USAGE; // TraceSetException: the same trace twice, two traces of one node
            message = ex.getMessage();
        } else if (ex instanceof org.tracesync.core.model.InvalidRequestException) {
            // the library rejects impossible requests (e.g. two traces with one node name) this way;
            // any other IllegalArgumentException is a broken invariant: a bug, below
            code = ExitCode.USAGE;
            message = ex.getMessage();
        } else {
            code = ExitCode.INTERNAL;
            message = "internal error: " + ex + " (a bug; rerun with --debug for the stack trace and report it)";
        }
        err.println("tracesync: " + message);
        if (debug) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }
}
