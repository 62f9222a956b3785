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
