package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Bad flags and arguments fail at once, saying what is wrong and what to do. */
class CommandLineTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine command = Main.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    return command.execute(args);
  }

  @Test
  void everyCommandIsListed() {
    assertEquals(0, run("--help"));
    for (String name :
        new String[] {"demo", "serve", "invoke", "send", "call", "state", "replay", "tables"}) {
      assertTrue(out.toString().contains("  " + name), name + " in\n" + out);
    }
  }

  @Test
  void twoBackendsAtOnceAreRefused() {
    assertEquals(2, run("tables", "--aws", "--in-memory"));
    assertTrue(
        err.toString().contains("Choose one of --localstack, --aws and --in-memory"),
        err.toString());
  }

  @Test
  void aLocalStackUrlMustBeAUrl() {
    assertEquals(2, run("tables", "--localstack", "not a url"));
    assertTrue(err.toString().contains("--localstack takes an http(s) URL"), err.toString());
  }

  @Test
  void anUnknownFlagPrintsTheUsage() {
    assertEquals(2, run("serve", "--prot", "8000"));
    assertTrue(
        err.toString().contains("Unknown option") && err.toString().contains("'--prot'"),
        err.toString());
    assertTrue(err.toString().contains("Possible solutions: --prefix"), err.toString());
  }

  @Test
  void aMalformedAddressSaysHowToWriteOne() {
    assertEquals(2, run("send", "cart-ada", "hi"));
    assertTrue(
        err.toString().contains("write namespace/type/id, e.g. shop/cart/ada"), err.toString());
  }

  @Test
  void anUnknownPipelineNamesTheKnownOnes() {
    assertEquals(2, run("replay", "--pipeline", "nope", "whatever.jsonl"));
    assertTrue(err.toString().contains("choose one of [fraud-check]"), err.toString());
  }

  @Test
  void aMissingEventFileIsNamed() {
    assertEquals(2, run("invoke", "--event", "no-such-event.json"));
    assertTrue(err.toString().contains("no-such-event.json: no such file"), err.toString());
  }

  @Test
  void aServerThatIsNotThereIsNamedWithWhatToDo() throws Exception {
    int nothing;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      nothing = free.getLocalPort();
    }
    assertEquals(1, run("tables", "--localstack", "http://127.0.0.1:" + nothing));
    assertTrue(
        err.toString().contains("statekit-local tables: nothing answers at the endpoint"),
        err.toString());
    assertTrue(err.toString().contains("start LocalStack first"), err.toString());
    assertTrue(!err.toString().contains("\tat "), "no stack trace: " + err);
  }

  @Test
  void aPortInUseFailsBeforeAnythingStarts() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertEquals(1, run("serve", "--port", String.valueOf(taken.getLocalPort())));
      assertTrue(err.toString().contains(":" + taken.getLocalPort()), err.toString());
      assertTrue(err.toString().contains("choose another port with --port"), err.toString());
    }
  }

  /** A URL without a scheme (//host:port) is refused like any other that is not http(s). */
  @Test
  void aLocalStackUrlWithoutASchemeSaysWhatToWrite() {
    assertEquals(2, run("tables", "--localstack", "//localhost:4566"), () -> err.toString());
    assertTrue(err.toString().contains("--localstack takes an http(s) URL"), err.toString());
  }
}
