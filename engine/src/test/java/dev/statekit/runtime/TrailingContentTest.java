package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A payload holding more than one JSON document (two envelopes run together by a producer, or an
 * envelope with text after it) is refused whole, with why: taking its first envelope and ignoring
 * the rest would lose the others without a word.
 */
class TrailingContentTest {
  private static final String ONE =
      "{\"target\":\"t/rec/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"one\"}";
  private static final String TWO =
      "{\"target\":\"t/rec/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"two\"}";

  private final List<String> applied = new ArrayList<>();
  private final Clock clock = Clock.systemUTC();
  private final InMemoryMessageBus deadLetters =
      new InMemoryMessageBus(clock, Duration.ofSeconds(30));
  private final FunctionRuntime runtime =
      FunctionRuntime.builder(
              StatefulFunctions.builder()
                  .withFunction(
                      TypeName.of("t", "rec"),
                      (context, message) -> applied.add(message.asUtf8String()))
                  .build())
          .store(new InMemoryFunctionStore())
          .queue(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
          .deadLetters(deadLetters)
          .build();

  @Test
  void aQueueMessageWithTwoEnvelopesIsDeadLetteredWholeNotHalfApplied() {
    runtime.processQueueBatch(
        List.of(new QueueMessage("m-1", ONE + TWO, "t/rec/a", "18889000000000000001", 1)));

    assertEquals(List.of(), applied, "neither applied: the first alone would lose the second");
    assertEquals(1, deadLetters.size());
    var dead = deadLetters.peekAll().get(0);
    assertTrue(dead.body().contains("\"two\""), "the whole body is kept: " + dead.body());
    assertTrue(dead.attributes().toString().contains("not JSON"), dead.toString());
  }

  @Test
  void aDirectInvokeWithTrailingTextIsRefused() {
    var e =
        assertThrows(
            RuntimeException.class,
            () -> runtime.invokeJson((ONE + " " + TWO).getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains("not JSON"), e.getMessage());
    assertEquals(List.of(), applied);
  }
}
