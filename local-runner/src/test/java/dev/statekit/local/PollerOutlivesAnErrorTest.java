package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.application.Application;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.handlers.Variables;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.InMemoryQueuePoller;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.runtime.Ingress;
import dev.statekit.types.TypeName;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A function that fails with an Error the runtime does not take for the message's own failure (an
 * OutOfMemoryError: here an array sized from the input, which the JVM refuses at once) fails its
 * invocation. On Lambda that is a function error like any other: the runtime reports it, the event
 * source mapping leaves the batch on the queue and goes on polling, and the queue's other messages
 * are handed over. The local runner's poller must go on too.
 */
class PollerOutlivesAnErrorTest {
  private static final TypeName FN = TypeName.of("t", "fn");
  private static final TypeName SAID = TypeName.of("t", "said");

  @Test
  void aMessageAfterOneWhoseFunctionRanOutOfMemoryIsStillApplied() throws Exception {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                FN,
                (context, message) -> {
                  String text = message.asUtf8String();
                  if (text.equals("huge")) {
                    // A size read from the message: the JVM refuses it (OutOfMemoryError).
                    long[] table = new long[Integer.MAX_VALUE];
                    text = "size " + table.length;
                  }
                  context.send(EgressMessageBuilder.forEgress(SAID).withValue(text).build());
                })
            .build();
    Application application =
        Application.builder("oom").functions(functions).egress(SAID, "SAID_QUEUE_URL", "q").build();
    InMemoryApplication app = application.inMemory(Variables.of(Map.of()), Clock.systemUTC());
    LocalFunction function =
        new LocalFunction(
            new FunctionDef(
                "AppFunction", "x::handleRequest", Map.of(), List.of(), null, false, 512, 30),
            new StateKitHandler(app.entryPoint()));
    StringWriter log = new StringWriter();
    // As serve --in-memory polls its ingress queue (InMemoryApp.startEventSources).
    InMemoryQueuePoller poller =
        new InMemoryQueuePoller(
            "AppFunction.Ingress",
            app.ingress(),
            function::invoke,
            new Activity(new PrintWriter(log, true)),
            1);
    Thread thread = new Thread(poller, "statekit-AppFunction.Ingress");
    thread.setDaemon(true);
    thread.start();
    try {
      send(app, Address.of(FN, "a"), "huge");
      long deadline = System.currentTimeMillis() + 2_000;
      while (function.invocations() == 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      Thread.sleep(200);
      send(app, Address.of(FN, "b"), "fine");
      deadline = System.currentTimeMillis() + 5_000;
      while (app.egress().get(SAID).texts().isEmpty() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(
          List.of("fine"),
          app.egress().get(SAID).texts(),
          "b's message is applied while a's stays on the queue (poller thread alive: "
              + thread.isAlive()
              + ")\n"
              + log);
    } finally {
      poller.stop();
    }
  }

  private static void send(InMemoryApplication app, Address target, String text) {
    String envelope =
        "{\"target\":\""
            + target
            + "\",\"typename\":\"io.statefun.types/string\",\"value\":\""
            + text
            + "\"}";
    app.ingress().send(List.of(new BusMessage(Ingress.groupId(target), text, envelope)));
  }
}
