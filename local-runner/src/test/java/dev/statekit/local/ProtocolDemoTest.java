package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProtocolDemoTest {
  @Test
  void theDemoShowsTheWholeProtocolFlow() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    int requests = ProtocolDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(8, requests, printed);
    for (String expected :
        new String[] {
          "function declares state 'seen' (io.statefun.types/int, AFTER_INVOKE 86400000 ms)",
          "egress example/greets: \"Hello Ada! I have seen you 3 times.\"",
          "message to example/audit/all: \"Grace:1\"",
          "egress example/audits: \"total=4 last=Grace:1\"",
          "state seen = 3",
          "delayed message to example/reminder/r1 in 60000 ms (token tea): \"fire:tea\"",
          "cancel delayed message with token tea",
          "egress example/reminders: \"fired tea\""
        }) {
      assertTrue(printed.contains(expected), expected + " in:\n" + printed);
    }
  }
}
