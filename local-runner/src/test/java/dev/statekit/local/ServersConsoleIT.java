package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.function.Address;
import dev.statekit.testservers.RealServers;
import dev.statekit.types.TypeName;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** The console's documents when serve runs the examples on the embedded servers. */
@ExtendWith(RealServers.class)
class ServersConsoleIT {
  private static final String PREFIX = "con-" + UUID.randomUUID().toString().substring(0, 6);
  private static ServeCommand.Running running;
  private static ConsoleData console;

  @BeforeAll
  static void serve() throws Exception {
    CommandLine command = new CommandLine(new ServeCommand());
    command.setOut(new PrintWriter(new StringWriter(), true));
    command.parseArgs("--port", "0", "--prefix", PREFIX, "--tick", "1", "--retry-after", "0");
    running = ((ServeCommand) command.getCommand()).start();
    console = running.app().console();
  }

  @AfterAll
  static void stop() {
    if (running != null) {
      running.close();
    }
  }

  @Test
  void theConsoleReadsStateGraphQueuesAndResendsAFixedDeadLetter() throws Exception {
    JsonNode overview = console.overview();
    assertTrue(overview.toString().contains("\"label\":\"suspicious\""), overview.toString());
    assertEquals(false, overview.get("readOnly").asBoolean());
    assertEquals(3, console.queues().get("queues").size(), console.queues().toString());

    Address ada = Address.of(TypeName.of("example", "greeter"), "Ada");
    running.app().enqueue(ada, Envelopes.ofText(ada, "io.statefun.types/string", "hi", null));
    await(() -> console.address("example/greeter/Ada").toString().contains("\"value\":1"));
    // serve runs the handlers with the console's observer: the invocation and its effects are
    // listed.
    await(
        () -> {
          String listed = console.invocations(0, 500).toString();
          return listed.contains("example/greeter/Ada") && listed.contains("\"applied\"");
        });
    assertTrue(console.overview().get("invocationsObserved").asBoolean());
    assertTrue(
        console.addresses().toString().contains("example/greeter/Ada"),
        console.addresses().toString());

    Address book = Address.of(TypeName.of("shop", "inventory"), "book");
    running.app().enqueue(book, Envelopes.ofText(book, "shop/restock", "{\"quantity\": 3}", null));
    Address eve = Address.of(TypeName.of("shop", "cart"), "eve");
    running
        .app()
        .enqueue(
            eve,
            Envelopes.ofText(eve, "shop/add-item", "{\"sku\": \"book\", \"quantity\": 0}", null));
    await(() -> console.queues().get("deadLetters").size() == 1);
    JsonNode letter = console.queues().get("deadLetters").get(0);
    assertTrue(letter.get("error").asText().contains("quantity of at least 1"), letter.toString());
    String fixed = letter.get("editable").asText().replace("\"quantity\":0", "\"quantity\":1");
    console.resend(letter.get("id").asText(), fixed);
    await(() -> console.address("shop/cart/eve").toString().contains("\"held\":true"));
    await(() -> console.queues().get("deadLetters").isEmpty());
  }

  /** Resending one letter leaves the others listed and resendable at once (not hidden 30 s). */
  @Test
  void resendingOneDeadLetterLeavesTheOthersInViewAndResendable() throws Exception {
    Address book = Address.of(TypeName.of("shop", "inventory"), "book");
    running.app().enqueue(book, Envelopes.ofText(book, "shop/restock", "{\"quantity\": 3}", null));
    for (String who : new String[] {"ivan", "judy"}) {
      Address cart = Address.of(TypeName.of("shop", "cart"), who);
      running
          .app()
          .enqueue(
              cart,
              Envelopes.ofText(
                  cart, "shop/add-item", "{\"sku\": \"book\", \"quantity\": 0}", null));
    }
    await(() -> console.queues().get("deadLetters").size() == 2);
    JsonNode letters = console.queues().get("deadLetters");
    JsonNode first = letters.get(0);
    JsonNode second = letters.get(1);
    console.resend(
        first.get("id").asText(),
        first.get("editable").asText().replace("\"quantity\":0", "\"quantity\":1"));

    JsonNode after = console.queues().get("deadLetters");
    assertEquals(1, after.size(), after.toString());
    assertEquals(second.get("id").asText(), after.get(0).get("id").asText());
    console.resend(
        second.get("id").asText(),
        second.get("editable").asText().replace("\"quantity\":0", "\"quantity\":1"));
    await(() -> console.address("shop/cart/ivan").toString().contains("\"held\":true"));
    await(() -> console.address("shop/cart/judy").toString().contains("\"held\":true"));
    await(() -> console.queues().get("deadLetters").isEmpty());
  }

  @Test
  void theConsoleCommandReadsWhatServeLeftAndWritesNothingUnlessAllowed() throws Exception {
    Address grace = Address.of(TypeName.of("example", "greeter"), "Grace");
    running.app().enqueue(grace, Envelopes.ofText(grace, "io.statefun.types/string", "hi", null));
    await(() -> console.address("example/greeter/Grace").toString().contains("\"value\":1"));

    // As from another directory: no serve record, the same servers and prefix.
    running.record().delete();
    ConsoleCommand.Running alone = consoleCommand("--prefix", PREFIX, "--port", "0");
    try {
      var client = java.net.http.HttpClient.newHttpClient();
      var base = alone.server().url();
      var state =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      base.resolve("statekit/api/address/example/greeter/Grace"))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertEquals(200, state.statusCode(), state.body());
      assertTrue(state.body().contains("\"seen\""), state.body());
      var overview =
          client.send(
              java.net.http.HttpRequest.newBuilder(base.resolve("statekit/api/overview")).build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertTrue(overview.body().contains("\"readOnly\":true"), overview.body());
      var resend =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      base.resolve("statekit/api/dead-letters/any/resend"))
                  .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertEquals(403, resend.statusCode(), resend.body());
      assertTrue(resend.body().contains("--allow-writes"), resend.body());
      var page =
          client.send(
              java.net.http.HttpRequest.newBuilder(base.resolve("console/")).build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertTrue(page.body().contains("StateKit console"), page.body());
      IllegalStateException missing =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalStateException.class, () -> consoleCommand("--prefix", "nothing-here"));
      assertTrue(
          missing.getMessage().contains("tables --prefix nothing-here"), missing.getMessage());
    } finally {
      alone.close();
      running.record().write();
    }
  }

  @Test
  void theConsoleCommandFindsAStacksResourcesByTheNamesGiven() throws Exception {
    Address linus = Address.of(TypeName.of("example", "greeter"), "Linus");
    running.app().enqueue(linus, Envelopes.ofText(linus, "io.statefun.types/string", "hi", null));
    await(() -> console.address("example/greeter/Linus").toString().contains("\"value\":1"));

    // As SAM names a stack's resources: nothing under the console's prefix, every name given.
    StringBuilder names = new StringBuilder("# from describe-stack-resources\n");
    ((ServersApp) running.app())
        .deployment()
        .resources()
        .all()
        .values()
        .forEach(r -> names.append(r.logicalId()).append('\t').append(r.ref()).append('\n'));
    java.nio.file.Path file = java.nio.file.Files.createTempFile("stack-names", ".txt");
    java.nio.file.Files.writeString(file, names);
    running.record().delete();
    ConsoleCommand.Running alone =
        consoleCommand("--prefix", "not-" + PREFIX, "--names", file.toString(), "--port", "0");
    try {
      var client = java.net.http.HttpClient.newHttpClient();
      var state =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      alone.server().url().resolve("statekit/api/address/example/greeter/Linus"))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertEquals(200, state.statusCode(), state.body());
      assertTrue(state.body().contains("\"seen\""), state.body());
      java.nio.file.Files.writeString(file, "StateTable\n");
      IllegalArgumentException bad =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class,
              () -> consoleCommand("--prefix", PREFIX, "--names", file.toString()));
      assertTrue(bad.getMessage().contains("line 1"), bad.getMessage());
    } finally {
      alone.close();
      running.record().write();
    }
  }

  private static ConsoleCommand.Running consoleCommand(String... args) throws Exception {
    CommandLine command = new CommandLine(new ConsoleCommand());
    command.setOut(new PrintWriter(new StringWriter(), true));
    command.parseArgs(args);
    return ((ConsoleCommand) command.getCommand()).start();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long end = System.currentTimeMillis() + 60_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("Not reached in 60 s");
      }
      Thread.sleep(200);
    }
  }
}
