package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code replay} of a file of large records through a running serve. The feed cut events by count
 * only: 500 transactions of 13 KB made one event of about 8.7 MB, which the serve refuses over
 * Lambda's 6 MB (and its reason never reached the caller: the client saw its body cut off).
 * Lambda's Kinesis event source mapping keeps a batch within the 6 MB; the feed does too.
 */
class ReplayThroughServeLimitTest {
  private static ServeCommand.Running running;

  @TempDir static Path dir;

  @BeforeAll
  static void serve() throws Exception {
    CommandLine command = new CommandLine(new ServeCommand());
    command.setOut(new PrintWriter(new StringWriter(), true));
    command.parseArgs("--port", "0", "--in-memory");
    running = ((ServeCommand) command.getCommand()).start();
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  @Test
  void aFileOfLargeRecordsIsReplayedThroughTheServeInEventsWithinLambdasLimit() throws Exception {
    Path file = dir.resolve("large.jsonl");
    StringBuilder lines = new StringBuilder();
    String merchant = "m".repeat(13_000);
    for (int i = 0; i < 500; i++) {
      lines
          .append("{\"id\":\"t")
          .append(i)
          .append("\",\"card\":\"4000-9\",\"amountCents\":100,\"merchant\":\"")
          .append(merchant)
          .append("\",\"country\":\"FR\",\"time\":")
          .append(1_000_000 + i * 1000)
          .append("}\n");
    }
    Files.writeString(file, lines, StandardCharsets.UTF_8);

    Run replay =
        Run.of("replay", "--pipeline", "fraud-check", "--wait-seconds", "0", file.toString());

    String shown = replay.toString().substring(0, Math.min(800, replay.toString().length()));
    assertTrue(replay.err().contains("through the serve"), shown);
    assertFalse(replay.err().contains("content-length"), "the serve refused the event: " + shown);
    assertTrue(replay.out().contains("500/500 records"), "not every record was fed: " + shown);
  }
}
