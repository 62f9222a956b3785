package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.function.Address;
import dev.statekit.local.emulation.Activity;
import dev.statekit.types.TypeName;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The console's JSON documents over the examples in memory, without a browser. */
class InMemoryConsoleTest {
  private static final Address EVE = Address.of(TypeName.of("shop", "cart"), "eve");
  private static final Address BOOK = Address.of(TypeName.of("shop", "inventory"), "book");
  private final InMemoryApp app;

  InMemoryConsoleTest() throws java.io.IOException {
    app = new InMemoryApp(new BackendOptions().template(), Map.of());
  }

  @AfterEach
  void stop() {
    app.close();
  }

  @Test
  void aDeadLetterFixedAndResentIsAppliedAndLeavesTheDeadLetterQueue() throws Exception {
    app.startEventSources(new Activity(new PrintWriter(new StringWriter())), null, 0);
    ConsoleData console = app.console();
    // With stock, the resent item's line is held and stays; without, the inventory's answer would
    // take it out again a moment after it shows, and the wait below would race that answer.
    app.enqueue(BOOK, Envelopes.ofText(BOOK, "shop/restock", "{\"quantity\": 3}", null));
    app.enqueue(
        EVE, Envelopes.ofText(EVE, "shop/add-item", "{\"sku\": \"book\", \"quantity\": 0}", null));
    await(() -> console.queues().get("deadLetters").size() == 1);
    JsonNode letter = console.queues().get("deadLetters").get(0);
    assertTrue(letter.get("error").asText().contains("quantity of at least 1"), letter.toString());
    String editable = letter.get("editable").asText();
    assertTrue(editable.contains("\"quantity\":0"), editable);

    assertThrows(
        IllegalArgumentException.class,
        () -> console.resend(letter.get("id").asText(), "{\"target\": \"nope\"}"),
        "a broken envelope is refused");
    assertEquals(1, console.queues().get("deadLetters").size(), "and the dead letter kept");

    JsonNode resent =
        console.resend(
            letter.get("id").asText(), editable.replace("\"quantity\":0", "\"quantity\":1"));
    assertEquals("shop/cart/eve", resent.get("target").asText());
    assertEquals(0, console.queues().get("deadLetters").size());
    await(
        () -> {
          String cart = console.address("shop/cart/eve").toString();
          return cart.contains("\"quantity\":1") && cart.contains("\"held\":true");
        });
    await(
        () -> {
          for (JsonNode i : console.invocations(0, 500).get("invocations")) {
            if (i.get("address").asText().equals("shop/cart/eve")
                && i.get("outcome").asText().equals("applied")) {
              return true;
            }
          }
          return false;
        });
    assertThrows(
        IllegalArgumentException.class,
        () -> console.resend(letter.get("id").asText(), ""),
        "resent once only");
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long end = System.currentTimeMillis() + 20_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("Not reached in 20 s");
      }
      Thread.sleep(50);
    }
  }
}
