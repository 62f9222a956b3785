package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.TypeName;
import dev.statekit.runtime.QueueMessage;
import dev.statekit.runtime.internal.data.DeadLetter;
import org.junit.jupiter.api.Test;

class DeadLettersTest {
  private static final TypeName LEGACY = TypeName.of("sim", "legacy");
  private static final QueueMessage MESSAGE =
      new QueueMessage(
          "m-1",
          "{\"target\":\"sim/legacy/l0\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}",
          "group-1",
          "18889000000000000042",
          6);

  // A message dead-lettered past its last attempt, then received again after a deploy removed its
  // function (seed 54050 of the runtime simulation): two dead letters with two deduplication ids
  // and two keys, so the dead-letter queue kept both and sending both again would apply it twice.
  @Test
  void aMessageWhoseFunctionWasRemovedIsDeadLetteredAsOnEveryOtherPath() {
    Delivery known =
        QueueBodyCodec.read(
            0,
            MESSAGE,
            new AddressResolver(
                StatefulFunctions.builder().withFunction(LEGACY, (c, m) -> {}).build()));
    DeadLetter applying =
        DeadLetters.of(
            known, known.invocations.get(0), new IllegalStateException("past its last"), "no");
    Delivery removed =
        QueueBodyCodec.read(
            0,
            MESSAGE,
            new AddressResolver(
                StatefulFunctions.builder()
                    .withFunction(TypeName.of("sim", "node"), (c, m) -> {})
                    .build()));

    DeadLetter unknown = DeadLetters.unreadable(removed);

    assertEquals(applying.getDeduplicationId(), unknown.getDeduplicationId());
    JsonNode body = EnvelopeCodec.tree(unknown.getBody());
    assertEquals(EnvelopeCodec.tree(applying.getBody()).get("id"), body.get("id"));
    assertTrue(body.get("id").asText().startsWith("statekit:dl:"), unknown.getBody());
    assertEquals("x", body.get("value").asText());
    assertEquals("unknown", unknown.getApplied());
  }

  @Test
  void anEnvelopesOwnIdStaysItsKey() {
    Delivery removed =
        QueueBodyCodec.read(
            0,
            new QueueMessage(
                "m-2",
                "{\"target\":\"sim/legacy/l0\",\"typename\":\"t/x\",\"value\":\"x\",\"id\":\"mine\"}",
                "group-1",
                "18889000000000000043",
                1),
            new AddressResolver(
                StatefulFunctions.builder()
                    .withFunction(TypeName.of("sim", "node"), (c, m) -> {})
                    .build()));

    assertEquals(
        "mine", EnvelopeCodec.tree(DeadLetters.unreadable(removed).getBody()).get("id").asText());
  }
}
