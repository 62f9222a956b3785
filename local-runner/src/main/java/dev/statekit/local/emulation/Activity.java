package dev.statekit.local.emulation;

import java.io.PrintWriter;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/** One line per thing an event source did, time-stamped, from any thread. */
public final class Activity {
  private final PrintWriter out;

  /** Prints to {@code out}. */
  public Activity(PrintWriter out) {
    this.out = out;
  }

  /** Prints one line. */
  public void log(String source, String text) {
    synchronized (out) {
      out.println(LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + " [" + source + "] " + text);
      out.flush();
    }
  }
}
