package dev.statekit.protocol;

import static dev.statekit.protocol.WireBytes.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.flink.statefun.sdk.java.StatefulFunctionSpec;
import org.apache.flink.statefun.sdk.java.message.EgressMessageBuilder;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.junit.jupiter.api.Test;

/**
 * The same request bytes, answered by StateKit's handler and by statefun-sdk-java 3.3.0's, for the
 * same function (count in an int state, egress "<id> <count> <caller>"): forged layouts a runtime
 * never sends, read as the SDK reads them.
 */
class SdkParityTest {
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();
  private static final org.apache.flink.statefun.sdk.java.ValueSpec<Integer> SDK_SEEN =
      org.apache.flink.statefun.sdk.java.ValueSpec.named("seen").withIntType();

  private final RequestReplyHandler ours =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  TypeName.of("test", "counter"),
                  (context, message) -> {
                    int seen = context.storage().get(SEEN).orElse(0) + 1;
                    context.storage().set(SEEN, seen);
                    context.send(
                        dev.statekit.function.EgressMessageBuilder.forEgress(
                                TypeName.of("test", "out"))
                            .withValue(
                                context.self().id()
                                    + " "
                                    + seen
                                    + " "
                                    + context.caller().map(a -> a.toString()).orElse("ingress"))
                            .build());
                  },
                  SEEN)
              .build());

  private final org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler sdk =
      new org.apache.flink.statefun.sdk.java.StatefulFunctions()
          .withStatefulFunction(
              StatefulFunctionSpec.builder(
                      org.apache.flink.statefun.sdk.java.TypeName.typeNameFromString(
                          "test/counter"))
                  .withValueSpec(SDK_SEEN)
                  .withSupplier(
                      () ->
                          (context, message) -> {
                            int seen = context.storage().get(SDK_SEEN).orElse(0) + 1;
                            context.storage().set(SDK_SEEN, seen);
                            context.send(
                                EgressMessageBuilder.forEgress(
                                        org.apache.flink.statefun.sdk.java.TypeName
                                            .typeNameFromString("test/out"))
                                    .withValue(
                                        context.self().id()
                                            + " "
                                            + seen
                                            + " "
                                            + context
                                                .caller()
                                                .map(
                                                    a ->
                                                        a.type().namespace()
                                                            + "/"
                                                            + a.type().name()
                                                            + "/"
                                                            + a.id())
                                                .orElse("ingress"))
                                    .build());
                            return CompletableFuture.completedFuture(null);
                          })
                  .build())
          .requestReplyHandler();

  private void assertSameAnswer(byte[] request) throws Exception {
    FromFunction sdkAnswer = PeerWire.parse(sdk.handle(Slices.wrap(request)).get().toByteArray());
    FromFunction ourAnswer;
    try {
      ourAnswer = PeerWire.parse(ours.invoke(request));
    } catch (RuntimeException e) {
      throw new AssertionError(
          "StateKit refused a request the reference SDK answers with " + sdkAnswer, e);
    }
    assertEquals(sdkAnswer, ourAnswer);
  }

  /**
   * Both handlers refuse the request: the SDK's fails, StateKit's throws.
   *
   * @return StateKit's refusal
   */
  private RuntimeException assertBothRefuse(byte[] request) {
    assertThrows(
        ExecutionException.class,
        () -> sdk.handle(Slices.wrap(request)).get(),
        "the reference SDK refuses the request (premise)");
    return assertThrows(
        RuntimeException.class,
        () -> ours.invoke(request),
        "the reference SDK refuses the request, StateKit answered it");
  }

  /**
   * A message whose argument does not set has_value (its type name and value bytes are there): the
   * SDK refuses to run it (MessageWrapper: "Unset empty Messages are prohibited"), failing the
   * batch at that message. StateKit ran it as a message with that value.
   */
  @Test
  void anArgumentWithoutHasValueIsRefusedAsTheSdkRefusesIt() {
    org.apache.flink.statefun.sdk.reqreply.generated.TypedValue unset =
        PeerWire.string("x").toBuilder().clearHasValue().build();
    byte[] request =
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(1))
            .message(PeerWire.string("x"))
            .message(unset)
            .bytes();

    RuntimeException refusal = assertBothRefuse(request);

    assertTrue(refusal instanceof MalformedRequestException, refusal.toString());
    assertTrue(refusal.getMessage().contains("Invocation 2 "), refusal.getMessage());
  }

  /**
   * An Invocation whose caller is present but empty ({@code 0A 00}): the SDK
   * (ProtoUtils.sdkAddressFromProto) reads an all-empty address as no caller, i.e. a message from
   * an ingress. StateKit refused the whole batch as an "incomplete caller address".
   */
  @Test
  void anEmptyCallerIsAnIngressMessageAsTheSdkReadsIt() throws Exception {
    assertSameAnswer(
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(1))
            .message(PeerWire.address("", "", ""), PeerWire.string("x"))
            .bytes());
  }

  /**
   * A PersistedValue whose state_value comes in two pieces: the runtime's value (int 10), then a
   * second state_value holding only an explicit has_value = false (12 02 10 00). The SDK's
   * protobuf-java 3.7.1 merges a repeated singular message with Message.mergeFrom, which skips the
   * later piece's proto3 default (has_value stays true: the state is 10 and becomes 11); StateKit's
   * reader merged field by field on the wire (has_value became false: the state absent, then 1).
   */
  @Test
  void aStateValueSentInTwoPiecesIsMergedAsTheSdkMergesIt() throws Exception {
    byte[] typedTen = PeerWire.integer(10).toByteArray();
    byte[] persisted =
        field(
            2,
            field(1, "seen".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
            field(2, typedTen),
            new byte[] {0x12, 0x02, 0x10, 0x00});
    byte[] target = field(1, PeerWire.address("test", "counter", "a").toByteArray());
    byte[] invocation = field(3, field(2, PeerWire.string("x").toByteArray()));
    byte[] request = field(100, target, persisted, invocation);
    assertSameAnswer(request);
  }

  /**
   * A PersistedValue named twice: protobuf keeps both entries; the SDK takes the first one with the
   * name (StateValueContexts.findPersistedValueByName).
   */
  @Test
  void aStateSentTwiceIsReadAsTheSdkReadsIt() throws Exception {
    assertSameAnswer(
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(10))
            .state("seen", PeerWire.integer(20))
            .message(PeerWire.string("x"))
            .bytes());
  }

  // ---- states and refusals where c1f57ef changed what the reader keeps (these pass) ----

  private static final byte[] TARGET =
      field(1, PeerWire.address("test", "counter", "a").toByteArray());

  private static final byte[] MESSAGE = field(3, field(2, PeerWire.string("x").toByteArray()));

  private static byte[] state(String name, byte[]... valuePieces) {
    byte[][] parts = new byte[valuePieces.length + 1][];
    parts[0] = field(1, name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    for (int i = 0; i < valuePieces.length; i++) {
      parts[i + 1] = field(2, valuePieces[i]);
    }
    return field(2, parts);
  }

  private static byte[] integer(int value) {
    return PeerWire.integer(value).toByteArray();
  }

  /**
   * The state named again after the messages, with another value: the first is taken (the handler
   * now reads a value only for a state the run still awaits).
   */
  @Test
  void aStateNamedAgainAfterTheMessagesKeepsItsFirstValue() throws Exception {
    assertSameAnswer(
        field(
            100, TARGET, state("seen", integer(10)), MESSAGE, MESSAGE, state("seen", integer(20))));
  }

  /** Named first without a value, then with one: the state has none. */
  @Test
  void aStateNamedFirstWithoutAValueHasNone() throws Exception {
    assertSameAnswer(field(100, TARGET, state("seen"), MESSAGE, state("seen", integer(20))));
  }

  /** The states after the messages in the byte order. */
  @Test
  void statesAfterTheMessagesAreRead() throws Exception {
    assertSameAnswer(field(100, TARGET, MESSAGE, MESSAGE, state("seen", integer(5))));
  }

  /**
   * A state value in two whole pieces, read again when the state is awaited: the second's type and
   * value replace the first's.
   */
  @Test
  void aStateValueInTwoWholePiecesIsTheSecond() throws Exception {
    assertSameAnswer(field(100, TARGET, state("seen", integer(10), integer(20)), MESSAGE));
  }

  /**
   * States named "", of a name not declared and of the declared name again, each of another type:
   * all ignored (none is read).
   */
  @Test
  void statesTheFunctionDoesNotTakeAreIgnored() throws Exception {
    byte[] text = PeerWire.string("z").toByteArray();
    assertSameAnswer(
        field(
            100,
            TARGET,
            state("", text),
            state("other", text),
            state("seen", integer(3)),
            state("seen", text),
            MESSAGE));
  }

  /**
   * A message without an argument (StateKit refuses the batch there), then one whose caller id is a
   * UTF-8 surrogate (ED A0 80): the message after the refused one is skipped, not kept, but still
   * read, so the refusal is the parser's, as before c1f57ef and as the SDK's.
   */
  @Test
  void aRefusedMessageThenInvalidUtf8IsRefusedAsNotProtobuf() {
    byte[] surrogate = {(byte) 0xED, (byte) 0xA0, (byte) 0x80};
    byte[] request =
        field(
            100,
            TARGET,
            state("seen", integer(1)),
            field(3),
            field(3, field(1, field(3, surrogate)), field(2, PeerWire.string("x").toByteArray())));

    RuntimeException refusal = assertBothRefuse(request);

    assertTrue(refusal.getMessage().contains("not valid UTF-8"), refusal.getMessage());
  }

  /** The same with a message cut short (its length runs past the batch) after the refused one. */
  @Test
  void aRefusedMessageThenOneCutShortIsRefusedAsNotProtobuf() {
    byte[] request =
        field(100, TARGET, state("seen", integer(1)), field(3), new byte[] {0x1a, 0x05, 0x0a});

    RuntimeException refusal = assertBothRefuse(request);

    assertTrue(
        refusal.getMessage().contains("not a StateFun ToFunction message"), refusal.getMessage());
  }

  // ---- addresses and batches read as the SDK reads them (TypeName.typeNameOf) ----

  /** A caller namespace "n/": the SDK drops the '/' ending it, so the caller is n/t/i. */
  @Test
  void aCallerNamespaceEndingInASlashIsReadAsTheSdkReadsIt() throws Exception {
    assertSameAnswer(
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(1))
            .message(PeerWire.address("n/", "t", "i"), PeerWire.string("x"))
            .bytes());
  }

  /** A caller namespace "/": empty once the SDK drops the slash, so both refuse the batch. */
  @Test
  void aCallerNamespaceOfOneSlashIsRefusedAsTheSdkRefusesIt() {
    RuntimeException refusal =
        assertBothRefuse(
            PeerWire.request("test", "counter", "a")
                .state("seen", PeerWire.integer(1))
                .message(PeerWire.address("/", "t", "i"), PeerWire.string("x"))
                .bytes());

    assertTrue(refusal instanceof MalformedRequestException, refusal.toString());
    assertTrue(refusal.getMessage().contains("caller address '//t/i'"), refusal.getMessage());
  }

  /** A target namespace "test/": the SDK serves test/counter, and so does StateKit now. */
  @Test
  void aTargetNamespaceEndingInASlashIsServedAsTheSdkServesIt() throws Exception {
    assertSameAnswer(
        PeerWire.request("test/", "counter", "a")
            .state("seen", PeerWire.integer(1))
            .message(PeerWire.string("x"))
            .bytes());
  }

  /** A batch of no messages: the SDK answers an empty result; StateKit refused the request. */
  @Test
  void aBatchOfNoMessagesIsAnsweredAsTheSdkAnswersIt() throws Exception {
    assertSameAnswer(
        PeerWire.request("test", "counter", "a").state("seen", PeerWire.integer(1)).bytes());
  }

  // ---- where StateKit refuses what the SDK runs, on purpose ----

  /**
   * A caller with an empty id: the SDK runs the message, StateKit refuses the batch, because a
   * StateKit address always has an id (its state and queues are keyed by it). A StateFun runtime
   * sends one only from a function whose own id is empty, which StateKit never serves.
   */
  @Test
  void aCallerWithAnEmptyIdIsRefusedWithAClearError() throws Exception {
    byte[] request =
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(1))
            .message(PeerWire.address("n", "t", ""), PeerWire.string("x"))
            .bytes();
    sdk.handle(Slices.wrap(request)).get();

    RuntimeException refusal =
        assertThrows(MalformedRequestException.class, () -> ours.invoke(request));

    assertTrue(
        refusal.getMessage().contains("caller address 'n/t/' is incomplete"), refusal.getMessage());
  }

  /**
   * A caller namespace "n//": the SDK runs it (caller namespace "n/"), StateKit refuses the batch:
   * a namespace that still ends in '/' once one is dropped would not read back as itself from the
   * text StateKit stores addresses as (TypeName.of refuses it too).
   */
  @Test
  void aCallerNamespaceEndingInTwoSlashesIsRefusedWithAClearError() throws Exception {
    byte[] request =
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(1))
            .message(PeerWire.address("n//", "t", "i"), PeerWire.string("x"))
            .bytes();
    sdk.handle(Slices.wrap(request)).get();

    RuntimeException refusal =
        assertThrows(MalformedRequestException.class, () -> ours.invoke(request));

    assertTrue(
        refusal.getMessage().contains("caller address 'n///t/i' is incomplete"),
        refusal.getMessage());
  }

  /**
   * An argument whose type name is not namespace/name: the SDK fails only a function that reads the
   * type, StateKit refuses the batch up front (its reader's memory bound for forged batches counts
   * on every kept message naming a type of at least three bytes).
   */
  @Test
  void anArgumentTypeWithoutASlashIsRefusedWithAClearError() throws Exception {
    byte[] request =
        PeerWire.request("test", "counter", "a")
            .state("seen", PeerWire.integer(1))
            .message(PeerWire.string("x").toBuilder().setTypename("noslash").build())
            .bytes();
    sdk.handle(Slices.wrap(request)).get();

    RuntimeException refusal =
        assertThrows(MalformedRequestException.class, () -> ours.invoke(request));

    assertTrue(
        refusal.getMessage().contains("'noslash' is not namespace/name"), refusal.getMessage());
  }
}
