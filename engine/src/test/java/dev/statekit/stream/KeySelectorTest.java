package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a keyBy selector may answer: a key state can be found by again. */
class KeySelectorTest {
  private static Pipeline counting(java.util.function.Function<String, Object> selector) {
    return Pipeline.from(Sources.fromList(List.of("a", "b", "a")))
        .keyBy(selector::apply, 2)
        .reduce((x, y) -> x + y)
        .to(Sinks.collecting());
  }

  /**
   * Arrays are equal only to themselves: byte[] keys were routed by content but kept state by
   * identity, so every record started a running value of its own (a reduce over a, b, a gave 1, 1,
   * 1). Refused, saying what to key by.
   */
  @Test
  void anArrayKeyIsRefusedSayingWhatToKeyBy() {
    Exception e =
        assertThrows(
            PipelineFailedException.class,
            () ->
                counting(s -> s.getBytes(StandardCharsets.UTF_8))
                    .run(RunOptions.named("array-keys").build()));
    assertTrue(e.getMessage().contains("returned an array (byte[])"), e.getMessage());
    assertTrue(e.getMessage().contains("Key by a String"), e.getMessage());
  }

  @Test
  void aNullKeyIsRefused() {
    Exception e =
        assertThrows(
            PipelineFailedException.class,
            () -> counting(s -> null).run(RunOptions.named("null-keys").build()));
    assertTrue(e.getMessage().contains("every record needs a key"), e.getMessage());
  }

  record BytesKey(byte[] id) {}

  record Nested(String name, BytesKey bytes) {}

  /**
   * A record or list holding an array is equal only to itself as the array is: keys of them were
   * let through, and a running value over a, b, a gave 1, 1, 1. Refused the same way.
   */
  @Test
  void aKeyHoldingAnArrayIsRefused() {
    List<java.util.function.Function<String, Object>> selectors =
        List.of(
            s -> new BytesKey(s.getBytes(StandardCharsets.UTF_8)),
            s -> new Nested(s, new BytesKey(s.getBytes(StandardCharsets.UTF_8))),
            s -> List.of(s.getBytes(StandardCharsets.UTF_8)));
    for (var selector : selectors) {
      Exception e =
          assertThrows(
              PipelineFailedException.class,
              () -> counting(selector).run(RunOptions.named("holding-arrays").build()));
      assertTrue(e.getMessage().contains("returned a key holding an array"), e.getMessage());
    }
  }

  /** Records and lists of values equal by content key state as ever. */
  @Test
  void recordsAndListsOfValuesKeyOneStateEach() throws Exception {
    record Card(String id, int region) {}
    for (java.util.function.Function<String, Object> selector :
        List.<java.util.function.Function<String, Object>>of(
            s -> new Card(s, 1), s -> List.of(s, 1))) {
      CollectingSink<String> out = Sinks.collecting();
      Pipeline.from(Sources.fromList(List.of("a", "b", "a")))
          .keyBy(selector::apply, 2)
          .reduce((x, y) -> x + y)
          .to(out)
          .run(RunOptions.named("value-keys").build());
      assertEquals(List.of("a", "aa", "b"), out.values().stream().sorted().toList());
    }
  }
}
