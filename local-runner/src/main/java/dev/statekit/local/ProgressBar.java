package dev.statekit.local;

import java.io.PrintWriter;

/** A one-line progress bar, redrawn in place: {@code [#####.....] 512/1000 records}. */
final class ProgressBar {
  private static final int WIDTH = 30;

  private final PrintWriter out;
  private final long total;
  private final String unit;
  private int lastDrawn = -1;

  ProgressBar(PrintWriter out, long total, String unit) {
    this.out = out;
    this.total = Math.max(1, total);
    this.unit = unit;
  }

  /** Shows {@code done} of the total; redraws only when the bar or the percentage moves. */
  synchronized void update(long done) {
    int percent = (int) Math.min(100, done * 100 / total);
    if (percent == lastDrawn) {
      return;
    }
    lastDrawn = percent;
    int filled = percent * WIDTH / 100;
    out.print(
        "\r["
            + "#".repeat(filled)
            + ".".repeat(WIDTH - filled)
            + "] "
            + done
            + "/"
            + total
            + " "
            + unit
            + " ("
            + percent
            + "%)");
    out.flush();
  }

  /** Ends the line. */
  synchronized void finish(long done) {
    update(done);
    out.println();
    out.flush();
  }
}
