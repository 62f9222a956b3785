package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code state ADDRESS} against a running serve builds the control API's URL by pasting the address
 * into it ({@code StateCommand}: {@code serve.get("statekit/state/" + address)}, resolved as a
 * URI): an id holding {@code ?} or {@code #} (valid ids: the console shows them) silently prints
 * another address's state, and one holding {@code %} is refused as a "Malformed escape pair" though
 * {@code send} took it.
 */
class StateThroughServeTest {
  private static ServeCommand.Running running;

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
  void stateOfAnIdWithAQuestionMarkIsThatAddresssState() {
    Run sent = Run.of("send", "example/greeter/x?y=1", "hi");
    assertEquals(0, sent.status(), sent.toString());

    Run state = Run.of("state", "example/greeter/x?y=1");
    assertEquals(0, state.status(), state.toString());
    assertTrue(state.out().contains("example/greeter/x?y=1"), "another address shown: " + state);
  }

  @Test
  void stateOfAnIdWithAPercentSignIsAnsweredLikeSendTookIt() {
    Run sent = Run.of("send", "example/greeter/100%", "hi");
    assertEquals(0, sent.status(), sent.toString());

    Run state = Run.of("state", "example/greeter/100%");
    assertEquals(0, state.status(), state.toString());
    assertTrue(state.out().contains("example/greeter/100%"), state.toString());
  }

  /** An id that is a dot segment: resolving the URL's path removed it (dots are encoded now). */
  @Test
  void stateOfTheIdDotDotIsThatAddresssState() {
    Run sent = Run.of("send", "example/greeter/..", "hi");
    assertEquals(0, sent.status(), sent.toString());

    Run state = Run.of("state", "example/greeter/..");
    assertEquals(0, state.status(), state.toString());
    assertTrue(state.out().contains("example/greeter/.."), state.toString());
  }

  /**
   * A malformed address is answered 400 saying so: the state view refuses it with picocli's
   * TypeConversionException, which the control API let through, and the JDK server dropped the
   * connection without an answer.
   */
  @Test
  void aMalformedAddressAtTheControlApiIsA400() throws Exception {
    java.net.http.HttpResponse<String> answer =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        running.server().url().resolve("statekit/state/no-slashes"))
                    .timeout(java.time.Duration.ofSeconds(3))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(400, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("is not an address"), answer.body());
  }
}
