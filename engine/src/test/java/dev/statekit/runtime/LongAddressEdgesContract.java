package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.bus.BusMessage;
import dev.statekit.bus.SqsText;
import dev.statekit.function.Address;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.store.OutboxKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Review of the address limit (1539a80): the edges of {@link LongAddressContract}. A delayed
 * message to an address no key can hold, addresses exactly at the limit in multibyte characters,
 * and an address with an unpaired surrogate (whose key no DynamoDB request can carry) beside others
 * in one batch.
 */
abstract class LongAddressEdgesContract extends RuntimeFixture {
  /** The text of COUNTER addresses before the id: {@code test/counter/}. */
  private static final int PREFIX_BYTES = "test/counter/".length();

  // An address of exactly 2,045 bytes in 4-byte characters (1,029 UTF-16 chars, past the
  // three-bytes-a-char shortcut) is kept: applied, its message to TOTAL sent, its state readable.
  @Test
  void anAddressOfExactly2045BytesInFourByteCharactersIsApplied() {
    FunctionRuntime runtime = runtime();
    String id = idOfBytes(2_045 - PREFIX_BYTES, "\uD83D\uDE00");
    Address atLimit = Address.of(TestFunctions.COUNTER, id);
    assertEquals(2_045, atLimit.toString().getBytes(StandardCharsets.UTF_8).length);

    DirectResult result =
        runtime.invoke(
            DirectInvocation.of(MessageBuilder.forAddress(atLimit).withValue(3L).build()));

    assertStatus(DirectResult.Status.APPLIED, result);
    assertEquals(3L, sum(atLimit));
    Address over = Address.of(TestFunctions.COUNTER, id + "x");
    assertStatus(
        DirectResult.Status.REJECTED,
        runtime.invoke(DirectInvocation.of(MessageBuilder.forAddress(over).withValue(1L).build())));
  }

  // The same in 3-byte characters.
  @Test
  void anAddressOfExactly2045BytesInThreeByteCharactersIsApplied() {
    FunctionRuntime runtime = runtime();
    String id = idOfBytes(2_045 - PREFIX_BYTES, "\u20AC");
    Address atLimit = Address.of(TestFunctions.COUNTER, id);
    assertEquals(2_045, atLimit.toString().getBytes(StandardCharsets.UTF_8).length);

    assertStatus(
        DirectResult.Status.APPLIED,
        runtime.invoke(
            DirectInvocation.of(MessageBuilder.forAddress(atLimit).withValue(4L).build())));
    assertEquals(4L, sum(atLimit));
  }

  // An outbox registration of an address at the limit: its count of failed tries is an attribute
  // named n:<address>, read and removed by expression attribute names.
  @Test
  void anOutboxRegistrationOfAnAddressAtTheLimitCountsItsTries() {
    Address atLimit =
        Address.of(TestFunctions.COUNTER, idOfBytes(2_045 - PREFIX_BYTES, "\uD83D\uDE00"));
    OutboxKey key = new OutboxKey(0, clock.millis(), "edge-" + run);

    store().registerOutboxes(key, List.of(atLimit));
    store().outboxesTried(key, java.util.Map.of(atLimit, java.util.Set.of("e0")), clock.millis());

    assertEquals(
        java.util.Optional.of(
            new dev.statekit.runtime.store.OutboxTries(1, java.util.Set.of("e0"))),
        store().outboxPending(key, atLimit));
    store().settleOutboxes(key, List.of(atLimit));
    assertEquals(java.util.Optional.empty(), store().outboxPending(key, atLimit));
  }

  // Two messages (two groups) in one queue batch: one to a plain address, one to an address whose
  // id ends in an unpaired surrogate (an id cut in the middle of an emoji; docs: user data may hold
  // any character). AddressLimit counts the surrogate as 1 byte ('?'), so it passes; but no
  // DynamoDB request can carry it. The plain message must be applied once and not dead-lettered.
  @Test
  void anAddressWithAnUnpairedSurrogateDoesNotFailTheMessagesBatchedWithIt() {
    FunctionRuntime runtime = runtime();
    Address plain = address(TestFunctions.COUNTER, "beside-surrogate");
    Address cut = Address.of(TestFunctions.COUNTER, "cut-" + run + "\uD83D");
    send(MessageBuilder.forAddress(plain).withValue(5L).build());
    send(MessageBuilder.forAddress(cut).withValue(1L).build());

    for (int attempt = 0; attempt < 4; attempt++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    List<String> plainLetters =
        letters.stream()
            .map(l -> l.getValue().getOrDefault("statekit.target", "?"))
            .filter(t -> t.equals(plain.toString()))
            .toList();
    assertEquals(
        List.of(),
        plainLetters,
        "the plain message is not dead-lettered: "
            + letters.stream().map(l -> l.getValue().get("statekit.error")).toList());
    assertEquals(5L, sum(plain), "the plain message was applied");
  }

  /** An id of exactly {@code bytes} UTF-8 bytes: {@code unit} repeated, then ASCII. */
  private static String idOfBytes(int bytes, String unit) {
    int unitBytes = unit.getBytes(StandardCharsets.UTF_8).length;
    StringBuilder id = new StringBuilder();
    int left = bytes;
    while (left >= unitBytes) {
      id.append(unit);
      left -= unitBytes;
    }
    return id.append("x".repeat(left)).toString();
  }

  private long sum(Address address) {
    var sum = store().reload(address).values().get(TestFunctions.SUM.name());
    return sum == null ? 0L : dev.statekit.types.Types.longType().deserialize(sum.bytes());
  }

  private void send(Message message) {
    queue()
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(message.targetAddress()),
                    UUID.randomUUID().toString(),
                    SqsText.escape(Ingress.envelope(message)))));
  }
}
