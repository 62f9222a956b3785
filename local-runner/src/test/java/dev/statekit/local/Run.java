package dev.statekit.local;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One command line run in this JVM, with what it printed. */
record Run(int status, String out, String err) {
  static Run of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = Main.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int status = command.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "status " + status + "\n--- out\n" + out + "--- err\n" + err;
  }
}
