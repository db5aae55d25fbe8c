package org.tracesync.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the CLI in-process and captures its exit code, stdout and stderr. */
record CommandRun(int exitCode, String out, String err) {

    static CommandRun of(String... args) {
        CommandLine cl = TracesyncCommand.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CommandRun(code, out.toString(), err.toString());
    }
}
