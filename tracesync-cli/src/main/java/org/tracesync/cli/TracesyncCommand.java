package org.tracesync.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tracesync} command: subcommands do the work. */
@Command(name = "tracesync", mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Synchronizes traces recorded on machines whose clocks disagree.",
        subcommands = {CommandLine.HelpCommand.class, InspectCommand.class})
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
        return new CommandLine(new TracesyncCommand());
    }
}
