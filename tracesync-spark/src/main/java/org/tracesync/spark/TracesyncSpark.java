package org.tracesync.spark;

import org.tracesync.cli.TracesyncCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code tracesync-spark} command (main class of the jar given to {@code spark-submit}, and
 * of {@code bin/tracesync-spark}): {@code sync}, the same job as {@code tracesync sync} on Spark.
 */
@Command(name = "tracesync-spark", mixinStandardHelpOptions = true,
        versionProvider = org.tracesync.cli.VersionProvider.class,
        description = "Synchronizes packet captures of many hosts on Apache Spark (docs/SPARK.md).",
        subcommands = {SparkSyncCommand.class, CommandLine.HelpCommand.class})
public final class TracesyncSpark implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "On errors, print the stack trace too.")
    boolean debug;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new TracesyncSpark());
        cl.setExecutionExceptionHandler(TracesyncCommand::handleExecutionException);
        cl.setParameterExceptionHandler((ex, args) -> TracesyncCommand.handleParameterException(ex, args, cl.getErr()));
        return cl;
    }
}
