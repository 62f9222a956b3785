package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.testservers.RealServers;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The README's first command's demo, on the embedded servers. */
@ExtendWith(RealServers.class)
class DemoIT {
  @Test
  void everyExampleRunsEndToEndOnTheServers() {
    Run run = Run.of("demo", "--prefix", "demo-" + UUID.randomUUID().toString().substring(0, 6));

    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("Table StateTable:"), run.out());
    assertTrue(run.out().contains("AppFunction.Ingress: polls http://127.0.0.1:"), run.out());
    assertTheExamplesWorked(run.out());
  }

  static void assertTheExamplesWorked(String out) {
    for (String expected :
        new String[] {
          "greeting: Hello Ada! I have seen you 2 times.",
          "state of example/greeter/Ada: seen=2",
          "state of example/audit/all: total=3",
          "[egress] example/reminders: fired tea",
          "ada: reserved 2 x book for 5 s (ada-1)",
          "bob: out of stock: book has 1 left",
          "ada: checked out order-1: 1 line(s)",
          "bob: hold on 1 x book ran out (bob-2)",
          "order: {\"orderId\":\"order-1\",\"user\":\"ada\"",
          "state of shop/inventory/book: stock={\"available\":1,\"sold\":2,\"holds\":{}}",
          "[retry] Message ",
          "add-item needs a sku and a quantity of at least 1",
          "dead letter: {\"target\":\"shop/cart/eve\"",
          "after 5 attempts)",
          "fraud-check] window result: 4000-0000-0000-0666 [",
          "73 transactions through the pipeline (event time now ",
          "), 22 alerts applied to fraud/card functions",
          "state of fraud/card/4000-0000-0000-0666: block={\"reason\":\"7 transactions in 10 minutes (limit 5)\"",
          "state of fraud/card/4000-0000-0000-0777: block={\"reason\":\"3 countries in 10 minutes [DE, FR, US] (limit 2)\"",
          "state of fraud/card/4000-0000-0000-0888: block={\"reason\":\"2150.00 spent in 10 minutes (limit 2000.00)\"",
          "state of fraud/card/4000-0000-0000-0001: (none)",
          "Done in "
        }) {
      assertTrue(out.contains(expected), expected + " in:\n" + out);
    }
    assertTrue(!out.contains("fired coffee"), "the cancelled reminder must not fire:\n" + out);
  }
}
