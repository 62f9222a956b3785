package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.application.Application;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.types.TypeName;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In memory, a delayed message is delivered on time by the wake-up queue's poller alone: no tick
 * runs here, so the sweep (a minute late) cannot be what delivers it.
 */
class InMemoryWakeUpsTest {
  private static final TypeName TIMER = TypeName.of("t", "timer");
  private static final TypeName SAID = TypeName.of("t", "said");

  @Test
  void aDelayedMessageArrivesWithinASecondOfItsDelayWithoutATick() throws Exception {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                TIMER,
                (context, message) -> {
                  String text = message.asUtf8String();
                  if (text.equals("start")) {
                    context.sendAfter(
                        Duration.ofSeconds(2),
                        MessageBuilder.forAddress(context.self()).withValue("ring").build());
                  } else {
                    context.send(EgressMessageBuilder.forEgress(SAID).withValue(text).build());
                  }
                })
            .build();
    Application application =
        Application.builder("wake")
            .functions(functions)
            .egress(SAID, "SAID_QUEUE_URL", "the queue")
            .build();
    InMemoryApplication app = application.inMemory(Variables.of(Map.of()), Clock.systemUTC());
    StringWriter log = new StringWriter();
    Activity activity = new Activity(new PrintWriter(log, true));
    Invoker function = payload -> app.entryPoint().invoke(payload);
    InMemoryQueuePoller ingress =
        new InMemoryQueuePoller("in", app.ingress(), function, activity, 1);
    InMemoryQueuePoller wakeUps =
        new InMemoryQueuePoller("wake", app.wakeUps(), function, activity, 1);
    List<Thread> threads = List.of(new Thread(ingress), new Thread(wakeUps));
    threads.forEach(Thread::start);
    try {
      long sent = System.nanoTime();
      app.entryPoint()
          .invoke(
              "{\"target\":\"t/timer/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"start\"}"
                  .getBytes(StandardCharsets.UTF_8));
      long deadline = sent + Duration.ofSeconds(8).toNanos();
      while (app.egress().get(SAID).texts().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      double seconds = (System.nanoTime() - sent) / 1e9;
      assertEquals(List.of("ring"), app.egress().get(SAID).texts(), log.toString());
      assertTrue(seconds >= 1.9, "not before its delay: " + seconds + " s");
      assertTrue(seconds < 3.5, "on time, not at a sweep: " + seconds + " s\n" + log);
    } finally {
      ingress.stop();
      wakeUps.stop();
    }
  }
}
