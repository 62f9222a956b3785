package dev.statekit.entry;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.statekit.StateKitException;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;

/**
 * The ingress envelope reader on mutated envelopes (seeded from {@code events/}): a direct invoke
 * is applied, answered, or refused with one of the runtime's own exceptions, within two seconds of
 * CPU time.
 */
class EnvelopeFuzzTest {
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();
  private static FunctionRuntime runtime;
  private static int uses;

  static {
    // Loads and starts what a direct invoke needs, so the first inputs are timed as the others.
    for (String envelope :
        new String[] {
          "{\"target\":\"example/greeter/Ada\",\"typename\":\"io.statefun.types/int\",\"value\":1}",
          "[{\"target\":\"shop/cart/a\",\"typename\":\"shop/x\",\"value\":\"AA==\",\"id\":\"k\"}]",
          "{\"target\":\"no/such/thing\",\"typename\":\"a/b\",\"value\":1}"
        }) {
      try {
        runtime().invokeJson(envelope.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } catch (StateKitException e) {
        // The last one is refused on purpose.
      }
    }
  }

  @FuzzTest
  @DictionaryEntries({
    "\"target\"",
    "\"typename\"",
    "\"value\"",
    "\"id\"",
    "\"io.statefun.types/string\"",
    "\"io.statefun.types/int\"",
    "\"io.statefun.types/long\"",
    "\"io.statefun.types/double\"",
    "\"io.statefun.types/bool\"",
    "\"shop/cart/ada\"",
    "\"example/greeter/Ada\"",
    "\"statekit:\""
  })
  void readsAnyEnvelope(byte[] payload) {
    // Refused or failed, as documented: InvalidEnvelopeException, InvocationFailedException.
    Quick.within(() -> runtime().invokeJson(payload), StateKitException.class);
  }

  /** A fresh runtime now and then, so that the addresses fuzzing makes up don't pile up. */
  private static FunctionRuntime runtime() {
    if (runtime == null || ++uses % 2_000 == 0) {
      Clock clock = Clock.systemUTC();
      runtime =
          FunctionRuntime.builder(
                  StatefulFunctions.builder()
                      .withFunction(
                          TypeName.of("example", "greeter"),
                          (context, message) ->
                              context
                                  .storage()
                                  .set(SEEN, context.storage().get(SEEN).orElse(0) + 1),
                          SEEN)
                      .withFunction(TypeName.of("shop", "cart"), (context, message) -> {})
                      .build())
              .store(new InMemoryFunctionStore())
              .queue(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
              .deadLetters(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
              .build();
    }
    return runtime;
  }
}
