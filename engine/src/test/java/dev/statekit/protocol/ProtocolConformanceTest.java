package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.integer;
import static dev.statekit.protocol.PeerWire.parse;
import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.statefun.sdk.egress.generated.KafkaProducerRecord;
import org.apache.flink.statefun.sdk.egress.generated.KinesisEgressRecord;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction.ExpirationSpec.ExpireMode;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction.PersistedValueMutation;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction.PersistedValueMutation.MutationType;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction.PersistedValueSpec;
import org.junit.jupiter.api.Test;

/** The protocol as an independent peer (statefun-sdk-java's generated classes) sees it. */
class ProtocolConformanceTest {
  private final RequestReplyHandler handler =
      new RequestReplyHandler(ConformanceFunctions.registry());

  @Test
  void missingStateIsAnsweredWithEverySpec() {
    FromFunction answer = call(request("test", "counter", "a").message(string("hi")).bytes());

    assertTrue(answer.hasIncompleteInvocationContext());
    List<PersistedValueSpec> missing =
        answer.getIncompleteInvocationContext().getMissingValuesList();
    assertEquals(List.of("seen", "total", "note"), names(missing));
    assertEquals("io.statefun.types/int", missing.get(0).getTypeTypename());
    assertEquals(ExpireMode.AFTER_INVOKE, missing.get(0).getExpirationSpec().getMode());
    assertEquals(86_400_000L, missing.get(0).getExpirationSpec().getExpireAfterMillis());
    assertEquals("io.statefun.types/long", missing.get(1).getTypeTypename());
    assertEquals(ExpireMode.AFTER_WRITE, missing.get(1).getExpirationSpec().getMode());
    assertEquals(300_000L, missing.get(1).getExpirationSpec().getExpireAfterMillis());
    assertEquals("io.statefun.types/string", missing.get(2).getTypeTypename());
    assertFalse(missing.get(2).hasExpirationSpec());
  }

  @Test
  void onlyTheStatesStillMissingAreListed() {
    FromFunction answer =
        call(request("test", "counter", "a").state("total").message(string("hi")).bytes());

    assertEquals(
        List.of("seen", "note"),
        names(answer.getIncompleteInvocationContext().getMissingValuesList()));
  }

  @Test
  void theResentBatchRunsAndSendsOnlyTheChangedValue() {
    byte[] resent =
        request("test", "counter", "a")
            .state("seen")
            .state("total")
            .state("note", string("kept"))
            .message(string("hi"))
            .bytes();

    FromFunction.InvocationResponse result = call(resent).getInvocationResult();

    assertEquals(1, result.getStateMutationsCount());
    PersistedValueMutation mutation = result.getStateMutations(0);
    assertEquals("seen", mutation.getStateName());
    assertEquals(MutationType.MODIFY, mutation.getMutationType());
    assertEquals(integer(1), mutation.getStateValue());
    assertEquals("a 1 hi from ingress", egressString(result.getOutgoingEgresses(0)));
  }

  @Test
  void aBatchThreadsStateThroughItsInvocationsInOrder() {
    PeerWire.Request request =
        request("test", "counter", "b").state("seen", integer(10)).state("total").state("note");
    for (int i = 0; i < 5; i++) {
      request.message(PeerWire.address("test", "caller", "c" + i), string("m" + i));
    }

    FromFunction.InvocationResponse result = call(request.bytes()).getInvocationResult();

    assertEquals(
        List.of(
            "b 11 m0 from test/caller/c0",
            "b 12 m1 from test/caller/c1",
            "b 13 m2 from test/caller/c2",
            "b 14 m3 from test/caller/c3",
            "b 15 m4 from test/caller/c4"),
        result.getOutgoingEgressesList().stream()
            .map(ProtocolConformanceTest::egressString)
            .collect(Collectors.toList()));
    assertEquals(1, result.getStateMutationsCount());
    assertEquals(integer(15), result.getStateMutations(0).getStateValue());
  }

  @Test
  void removalIsADeleteAndTheLastWriteWins() {
    assertEquals(
        List.of(MutationType.DELETE), mutationTypes(effects(string("kept"), "set", "remove")));
    assertEquals(List.of(MutationType.DELETE), mutationTypes(effects(null, "remove")));
    FromFunction.InvocationResponse setAgain = effects(string("kept"), "remove", "set");
    assertEquals(List.of(MutationType.MODIFY), mutationTypes(setAgain));
    assertEquals(string("noted"), setAgain.getStateMutations(0).getStateValue());
  }

  @Test
  void outgoingDelayedAndCancellationMessagesKeepTheirOrder() {
    FromFunction.InvocationResponse result =
        effects(null, "send", "delay", "delay-token", "cancel");

    assertEquals(1, result.getOutgoingMessagesCount());
    FromFunction.Invocation sent = result.getOutgoingMessages(0);
    assertEquals(PeerWire.address("test", "counter", "x"), sent.getTarget());
    assertEquals(string("ping"), sent.getArgument());

    List<FromFunction.DelayedInvocation> delayed = result.getDelayedInvocationsList();
    assertEquals(3, delayed.size());
    assertEquals(1500, delayed.get(0).getDelayInMs());
    assertEquals("", delayed.get(0).getCancellationToken());
    assertFalse(delayed.get(0).getIsCancellationRequest());
    assertEquals(string("ping"), delayed.get(0).getArgument());
    assertEquals(PeerWire.address("test", "counter", "x"), delayed.get(0).getTarget());
    assertEquals(2000, delayed.get(1).getDelayInMs());
    assertEquals("t1", delayed.get(1).getCancellationToken());
    assertTrue(delayed.get(2).getIsCancellationRequest());
    assertEquals("t1", delayed.get(2).getCancellationToken());
    assertFalse(delayed.get(2).hasTarget());
  }

  @Test
  void kafkaAndKinesisRecordsAreWhatStateFunEgressesRead() throws Exception {
    FromFunction.InvocationResponse result = effects(null, "kafka", "kinesis");

    FromFunction.EgressMessage kafka = result.getOutgoingEgresses(0);
    assertEquals("test", kafka.getEgressNamespace());
    assertEquals("out", kafka.getEgressType());
    assertEquals(
        "type.googleapis.com/io.statefun.sdk.egress.KafkaProducerRecord",
        kafka.getArgument().getTypename());
    assertTrue(kafka.getArgument().getHasValue());
    KafkaProducerRecord record = KafkaProducerRecord.parseFrom(kafka.getArgument().getValue());
    assertEquals("topic-a", record.getTopic());
    assertEquals("k", record.getKey());
    assertEquals("v", record.getValueBytes().toStringUtf8());

    FromFunction.EgressMessage kinesis = result.getOutgoingEgresses(1);
    assertEquals(
        "type.googleapis.com/io.statefun.sdk.egress.KinesisEgressRecord",
        kinesis.getArgument().getTypename());
    KinesisEgressRecord kinesisRecord =
        KinesisEgressRecord.parseFrom(kinesis.getArgument().getValue());
    assertEquals("stream-a", kinesisRecord.getStream());
    assertEquals("p", kinesisRecord.getPartitionKey());
    assertEquals("42", kinesisRecord.getExplicitHashKey());
    assertEquals("v", kinesisRecord.getValueBytes().toStringUtf8());
  }

  @Test
  void aRecordBuiltByStateKitHasTheSdksExactBytes() {
    byte[] ours =
        dev.statekit.function.KafkaEgressMessage.forEgress(ConformanceFunctions.OUT)
            .withTopic("topic-a")
            .withUtf8Key("k")
            .withUtf8Value("v")
            .build()
            .rawValue();
    byte[] sdk =
        org.apache.flink.statefun.sdk.java.io.KafkaEgressMessage.forEgress(
                org.apache.flink.statefun.sdk.java.TypeName.typeNameFromString("test/out"))
            .withTopic("topic-a")
            .withUtf8Key("k")
            .withUtf8Value("v")
            .build()
            .egressMessageValueBytes()
            .toByteArray();

    assertArrayEquals(sdk, ours);
  }

  private FromFunction.InvocationResponse effects(
      org.apache.flink.statefun.sdk.reqreply.generated.TypedValue note, String... commands) {
    PeerWire.Request request = request("test", "effects", "e");
    if (note == null) {
      request.state("note");
    } else {
      request.state("note", note);
    }
    for (String command : commands) {
      request.message(string(command));
    }
    FromFunction answer = call(request.bytes());
    assertTrue(answer.hasInvocationResult(), answer::toString);
    return answer.getInvocationResult();
  }

  private FromFunction call(byte[] request) {
    return parse(handler.invoke(request));
  }

  private static String egressString(FromFunction.EgressMessage egress) {
    assertEquals("io.statefun.types/string", egress.getArgument().getTypename());
    return PeerWire.value(Types.stringType(), egress.getArgument());
  }

  private static List<String> names(List<PersistedValueSpec> specs) {
    return specs.stream().map(PersistedValueSpec::getStateName).collect(Collectors.toList());
  }

  private static List<MutationType> mutationTypes(FromFunction.InvocationResponse result) {
    return result.getStateMutationsList().stream()
        .map(PersistedValueMutation::getMutationType)
        .collect(Collectors.toList());
  }
}
