package dev.statekit.entry;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** The runtime in memory with one function, {@code test/echo}, replying 15,000 characters. */
final class EchoRuntime {
  static final TypeName ECHO = TypeName.of("test", "echo");
  static final String REPLY = "r".repeat(15_000);

  final AtomicInteger applied = new AtomicInteger();
  final FunctionRuntime runtime =
      FunctionRuntime.builder(
              StatefulFunctions.builder()
                  .withFunction(
                      ECHO,
                      (context, message) -> {
                        applied.incrementAndGet();
                        context.send(
                            EgressMessageBuilder.forEgress(TypeName.of("statekit", "reply"))
                                .withValue(REPLY)
                                .build());
                      })
                  .build())
          .store(new InMemoryFunctionStore())
          .egress(
              dev.statekit.egress.EgressRoutes.builder()
                  .route(
                      TypeName.of("test", "reply"), new dev.statekit.egress.CollectingEgressSink())
                  .build())
          .queue(new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30)))
          .deadLetters(new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30)))
          .build();

  /** A call to {@code test/echo/<i>} under id {@code c<i>}. */
  static String call(int i) {
    return "{\"target\":\"test/echo/"
        + i
        + "\",\"typename\":\"io.statefun.types/int\",\"value\":1,\"id\":\"c"
        + i
        + "\",\"call\":true}";
  }
}
