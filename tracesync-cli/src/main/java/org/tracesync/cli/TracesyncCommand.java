package org.tracesync.cli;

import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.TraceSetException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code tracesync} command: subcommands do the work. */
@Command(name = "tracesync", mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Synchronizes traces recorded on machines whose clocks disagree.",
        subcommands = {SyncCommand.class, InspectCommand.class, EvalCommand.class, ApplyCommand.class, ConvertCommand.class,
            ReportCommand.class, SimulateCommand.class, SimulateSpansCommand.class, DemoCommand.class, SkewCommand.class,
            LatencyCommand.class,
            CommandLine.HelpCommand.class})
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
        System.exit(execute(newCommandLine(), args));
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

    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new TracesyncCommand());
        cl.setExecutionExceptionHandler(TracesyncCommand::handleExecutionException);
        cl.setParameterExceptionHandler((ex, args) -> handleParameterException(ex, args, cl.getErr()));
        return cl;
    }

    /** Exit codes (see {@link ExitCode}): 1 partial/impossible synchronization, 2 usage, 3 input error. */
    public static final int EXIT_PARTIAL = ExitCode.SYNC_INCOMPLETE;
    public static final int EXIT_USAGE = ExitCode.USAGE;
    public static final int EXIT_INPUT = ExitCode.INPUT;

    private static boolean debug(String[] args) {
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
        PrintWriter err = cl.getErr();
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
            return handleExecutionException(u.getCause(), cl, parseResult);
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
        if (debug(parseResult.originalArgs().toArray(new String[0]))) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }
}
