package org.tracesync.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tracesync} command: subcommands do the work. */
@Command(name = "tracesync", mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Synchronizes traces recorded on machines whose clocks disagree.",
        subcommands = {SyncCommand.class, EvalCommand.class, ApplyCommand.class, SkewCommand.class,
            CommandLine.HelpCommand.class})
public final class TracesyncCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new TracesyncCommand());
        cl.setExecutionExceptionHandler(TracesyncCommand::handleExecutionException);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("tracesync: " + ex.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            return EXIT_USAGE;
        });
        return cl;
    }

    /** Exit codes: 0 success, 1 partial/impossible synchronization, 2 usage, 3 input error. */
    public static final int EXIT_PARTIAL = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_INPUT = 3;

    private static int handleExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        if (e instanceof CommandLine.ParameterException pe) {
            cl.getErr().println("tracesync: " + pe.getMessage());
            return EXIT_USAGE;
        }
        if (e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException) {
            cl.getErr().println("tracesync: " + e.getMessage());
            return EXIT_INPUT;
        }
        if (e instanceof IllegalArgumentException) {
            cl.getErr().println("tracesync: " + e.getMessage());
            return EXIT_USAGE;
        }
        cl.getErr().println("tracesync: internal error: " + e);
        e.printStackTrace(cl.getErr());
        return 4;
    }
}
