package dev.statekit.entry;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.function.Address;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.runtime.store.StoredValue;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;

/** The runtime in memory with one function, {@code test/counter}, counting its messages. */
final class CounterRuntime {
  static final TypeName COUNTER = TypeName.of("test", "counter");
  static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();

  final InMemoryFunctionStore store = new InMemoryFunctionStore();
  final FunctionRuntime runtime =
      FunctionRuntime.builder(
              StatefulFunctions.builder()
                  .withFunction(
                      COUNTER,
                      (context, message) ->
                          context.storage().set(SEEN, context.storage().get(SEEN).orElse(0) + 1),
                      SEEN)
                  .build())
          .store(store)
          .queue(new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30)))
          .deadLetters(new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30)))
          .build();

  /** How many messages {@code test/counter/<id>} has counted. */
  int seen(String id) {
    StoredValue stored = store.reload(Address.of(COUNTER, id)).values().get(SEEN.name());
    return stored == null ? 0 : SEEN.type().deserialize(stored.bytes());
  }

  /** The version of {@code test/counter/<id>}'s state. */
  long version(String id) {
    return store.reload(Address.of(COUNTER, id)).version();
  }
}
