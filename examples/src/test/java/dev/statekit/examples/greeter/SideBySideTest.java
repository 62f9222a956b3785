package dev.statekit.examples.greeter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.java.types.Type;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.Address;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/**
 * The example functions written with StateKit and with statefun-sdk-java answer the same corpus of
 * requests (batches of 1 to 50, state absent, empty or set, every side effect kind) with equal
 * {@code FromFunction}s. The protocol leaves the order of state mutations and of missing specs
 * open, so those lists are compared sorted by name.
 */
class SideBySideTest {
  private static final int CASES = 400;

  private final RequestReplyHandler statekit =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(Greeter.TYPE, new Greeter(), Greeter.SEEN)
              .withFunction(Audit.TYPE, new Audit(), Audit.TOTAL)
              .withFunction(Reminder.TYPE, new Reminder())
              .withFunction(
                  StateKitEffects.TYPE, new StateKitEffects(), StateKitEffects.NOTE, Greeter.SEEN)
              .build());
  private final org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler sdk =
      SdkTwins.handler();

  /** What the corpus covered; every kind must appear, or the comparison proves little. */
  enum Covered {
    INCOMPLETE,
    MODIFY,
    DELETE,
    MESSAGE,
    DELAYED,
    DELAYED_WITH_TOKEN,
    CANCELLATION,
    EGRESS,
    KAFKA,
    KINESIS,
    BATCH_OF_50
  }

  @Test
  void bothAnswerEveryRequestOfTheCorpusAlike() throws Exception {
    Random random = new Random(20240312);
    Set<Covered> covered = EnumSet.noneOf(Covered.class);
    for (int i = 0; i < CASES; i++) {
      int batch = 1 + (i % 50);
      byte[] request = request(random, i % 4, batch);

      byte[] ours = statekit.invoke(request);
      FromFunction theirs =
          FromFunction.parseFrom(sdk.handle(Slices.wrap(request)).get().toByteArray());
      FromFunction parsed = FromFunction.parseFrom(ours);

      assertArrayEquals(parsed.toByteArray(), ours, "StateKit writes canonical protobuf");
      assertEquals(normalized(theirs), normalized(parsed), "case " + i);
      record(parsed, batch, covered);
    }
    assertEquals(EnumSet.allOf(Covered.class), covered);
  }

  private static byte[] request(Random random, int function, int batch) {
    String[] types = {"greeter", "audit", "reminder", "effects"};
    ToFunction.InvocationBatchRequest.Builder request =
        ToFunction.InvocationBatchRequest.newBuilder()
            .setTarget(address(types[function], "id-" + random.nextInt(5)));
    int stateMode = random.nextInt(4); // 0: absent, 1: known without value, 2-3: with a value
    if (stateMode > 0) {
      switch (function) {
        case 0:
          state(request, "seen", stateMode, Types.integerType(), random.nextInt(1000));
          break;
        case 1:
          state(request, "total", stateMode, Types.longType(), random.nextLong());
          break;
        case 3:
          state(request, "note", stateMode, Types.stringType(), "n" + random.nextInt(9));
          if (random.nextInt(5) > 0) {
            state(request, "seen", stateMode, Types.integerType(), random.nextInt(50));
          }
          break;
        default:
          break;
      }
    }
    for (int i = 0; i < batch; i++) {
      ToFunction.Invocation.Builder invocation =
          ToFunction.Invocation.newBuilder()
              .setArgument(typed(Types.stringType(), argument(random, function)));
      if (random.nextBoolean()) {
        invocation.setCaller(address("caller", "c" + random.nextInt(3)));
      }
      request.addInvocations(invocation);
    }
    return ToFunction.newBuilder().setInvocation(request).build().toByteArray();
  }

  private static String argument(Random random, int function) {
    String word = "w" + random.nextInt(20);
    switch (function) {
      case 2:
        String token = "t" + random.nextInt(3);
        switch (random.nextInt(3)) {
          case 0:
            return "set:" + random.nextInt(100_000) + ":" + token;
          case 1:
            return "cancel:" + token;
          default:
            return "fire:" + token;
        }
      case 3:
        String[] commands = {
          "send", "send-int", "delay", "kafka", "kinesis", "note", "forget", "count"
        };
        return commands[random.nextInt(commands.length)]
            + ":"
            + word.substring(0, 1 + random.nextInt(word.length()));
      default:
        return word;
    }
  }

  private static <T> void state(
      ToFunction.InvocationBatchRequest.Builder request,
      String name,
      int mode,
      Type<T> type,
      T value) {
    ToFunction.PersistedValue.Builder state =
        ToFunction.PersistedValue.newBuilder().setStateName(name);
    if (mode >= 2) {
      state.setStateValue(typed(type, value));
    }
    request.addState(state);
  }

  private static <T> TypedValue typed(Type<T> type, T value) {
    return TypedValue.newBuilder()
        .setTypename(type.typeName().asTypeNameString())
        .setHasValue(true)
        .setValue(ByteString.copyFrom(type.typeSerializer().serialize(value).toByteArray()))
        .build();
  }

  private static Address address(String type, String id) {
    return Address.newBuilder().setNamespace("example").setType(type).setId(id).build();
  }

  private static FromFunction normalized(FromFunction answer) {
    FromFunction.Builder builder = answer.toBuilder();
    if (answer.hasInvocationResult()) {
      List<FromFunction.PersistedValueMutation> mutations =
          new ArrayList<>(answer.getInvocationResult().getStateMutationsList());
      mutations.sort(Comparator.comparing(FromFunction.PersistedValueMutation::getStateName));
      builder.getInvocationResultBuilder().clearStateMutations().addAllStateMutations(mutations);
    } else {
      List<FromFunction.PersistedValueSpec> missing =
          new ArrayList<>(answer.getIncompleteInvocationContext().getMissingValuesList());
      missing.sort(Comparator.comparing(FromFunction.PersistedValueSpec::getStateName));
      builder
          .getIncompleteInvocationContextBuilder()
          .clearMissingValues()
          .addAllMissingValues(missing);
    }
    return builder.build();
  }

  private static void record(FromFunction answer, int batch, Set<Covered> covered) {
    if (answer.hasIncompleteInvocationContext()) {
      covered.add(Covered.INCOMPLETE);
      return;
    }
    FromFunction.InvocationResponse result = answer.getInvocationResult();
    assertTrue(answer.hasInvocationResult());
    if (batch == 50) {
      covered.add(Covered.BATCH_OF_50);
    }
    for (FromFunction.PersistedValueMutation mutation : result.getStateMutationsList()) {
      covered.add(
          mutation.getMutationType() == FromFunction.PersistedValueMutation.MutationType.DELETE
              ? Covered.DELETE
              : Covered.MODIFY);
    }
    if (result.getOutgoingMessagesCount() > 0) {
      covered.add(Covered.MESSAGE);
    }
    for (FromFunction.DelayedInvocation delayed : result.getDelayedInvocationsList()) {
      covered.add(
          delayed.getIsCancellationRequest()
              ? Covered.CANCELLATION
              : delayed.getCancellationToken().isEmpty()
                  ? Covered.DELAYED
                  : Covered.DELAYED_WITH_TOKEN);
    }
    for (FromFunction.EgressMessage egress : result.getOutgoingEgressesList()) {
      String type = egress.getArgument().getTypename();
      covered.add(
          type.endsWith("KafkaProducerRecord")
              ? Covered.KAFKA
              : type.endsWith("KinesisEgressRecord") ? Covered.KINESIS : Covered.EGRESS);
    }
  }
}
