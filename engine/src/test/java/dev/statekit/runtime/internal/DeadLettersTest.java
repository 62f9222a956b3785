package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.QueueMessage;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.internal.data.DeadLetter;
import dev.statekit.types.TypeName;
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

  private static Delivery read(String body, TypeName registered) {
    return QueueBodyCodec.read(
        0,
        new QueueMessage("m-3", body, "group-1", "18889000000000000044", 6),
        new AddressResolver(
            StatefulFunctions.builder().withFunction(registered, (c, m) -> {}).build()));
  }

  // An envelope with "id": null has no key of its own (parse reads it as none), so while its
  // function is registered its dead letter carries the runtime's statekit:dl: key; after a deploy
  // removed the function, withKey sees the field present and keeps "id": null, so the two dead
  // letters of one message carry two different re-send keys.
  @Test
  void anEnvelopeWithANullIdGetsTheSameKeyWhenItsFunctionWasRemoved() {
    String body =
        "{\"target\":\"sim/legacy/l0\",\"typename\":\"io.statefun.types/string\","
            + "\"value\":\"x\",\"id\":null}";
    Delivery known = read(body, LEGACY);
    DeadLetter applying =
        DeadLetters.of(
            known, known.invocations.get(0), new IllegalStateException("past its last"), "no");
    DeadLetter unknown = DeadLetters.unreadable(read(body, TypeName.of("sim", "node")));

    assertEquals(applying.getDeduplicationId(), unknown.getDeduplicationId());
    assertEquals(
        EnvelopeCodec.tree(applying.getBody()).get("id"),
        EnvelopeCodec.tree(unknown.getBody()).get("id"),
        unknown.getBody());
  }

  // One message whose envelope is invalid beyond its target (here its typename), received once
  // before and once after a deploy that registers its function: the first receive dead-letters it
  // as target-unknown (basis group:sequence|0, key statekit:dl:...), the second as unreadable
  // (basis messageId, no key). Two dead letters of one message, two deduplication ids, two keys.
  @Test
  void anInvalidEnvelopeIsDeadLetteredOnceWhetherOrNotItsTargetIsRegistered() {
    String body = "{\"target\":\"sim/legacy/l0\",\"typename\":\"no-slash\",\"value\":\"x\"}";
    DeadLetter before = DeadLetters.unreadable(read(body, TypeName.of("sim", "node")));
    DeadLetter after = DeadLetters.unreadable(read(body, LEGACY));

    assertEquals(before.getDeduplicationId(), after.getDeduplicationId());
    assertEquals(
        EnvelopeCodec.tree(before.getBody()).get("id"),
        EnvelopeCodec.tree(after.getBody()).get("id"));
  }
}
