package dev.statekit.protocol;

import static dev.statekit.protocol.WireBytes.concat;
import static dev.statekit.protocol.WireBytes.field;
import static dev.statekit.protocol.WireBytes.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.flink.statefun.sdk.java.StatefulFunctionSpec;
import org.apache.flink.statefun.sdk.java.message.EgressMessageBuilder;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.junit.jupiter.api.Test;

/**
 * Review of the request reader that keeps offsets (b5f73d5) and of the has_value refusal and group
 * depth (3bc845e): hand-forged requests answered by StateKit's handler and by statefun-sdk-java
 * 3.3.0's, for the same function, which echoes everything it sees (its id, the state, the caller,
 * the argument's type name and value) into an egress record, so any difference in what the reader
 * hands the function shows in the answer.
 */
class ReaderReviewTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();
  private static final org.apache.flink.statefun.sdk.java.ValueSpec<Integer> SDK_SEEN =
      org.apache.flink.statefun.sdk.java.ValueSpec.named("seen").withIntType();

  private final RequestReplyHandler ours =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  TypeName.of("test", "echo"),
                  (context, message) -> {
                    int seen = context.storage().get(SEEN).orElse(0) + 1;
                    context.storage().set(SEEN, seen);
                    String caller =
                        context
                            .caller()
                            .map(a -> a.type().namespace() + "/" + a.type().name() + "/" + a.id())
                            .orElse("ingress");
                    context.send(
                        dev.statekit.function.EgressMessageBuilder.forEgress(
                                TypeName.of("test", "out"))
                            .withValue(
                                echo(
                                    context.self().id(),
                                    seen,
                                    caller,
                                    message.valueTypeName().namespace()
                                        + "/"
                                        + message.valueTypeName().name(),
                                    message.rawValue()))
                            .build());
                  },
                  SEEN)
              .build());

  private final org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler sdk =
      new org.apache.flink.statefun.sdk.java.StatefulFunctions()
          .withStatefulFunction(
              StatefulFunctionSpec.builder(
                      org.apache.flink.statefun.sdk.java.TypeName.typeNameFromString("test/echo"))
                  .withValueSpec(SDK_SEEN)
                  .withSupplier(
                      () ->
                          (context, message) -> {
                            int seen = context.storage().get(SDK_SEEN).orElse(0) + 1;
                            context.storage().set(SDK_SEEN, seen);
                            String caller =
                                context
                                    .caller()
                                    .map(
                                        a ->
                                            a.type().namespace()
                                                + "/"
                                                + a.type().name()
                                                + "/"
                                                + a.id())
                                    .orElse("ingress");
                            context.send(
                                EgressMessageBuilder.forEgress(
                                        org.apache.flink.statefun.sdk.java.TypeName
                                            .typeNameFromString("test/out"))
                                    .withValue(
                                        echo(
                                            context.self().id(),
                                            seen,
                                            caller,
                                            message.valueTypeName().namespace()
                                                + "/"
                                                + message.valueTypeName().name(),
                                            message.rawValue().toByteArray()))
                                    .build());
                            return CompletableFuture.completedFuture(null);
                          })
                  .build())
          .requestReplyHandler();

  private static String echo(String id, int seen, String caller, String type, byte[] value) {
    return id + " " + seen + " " + caller + " " + type + " " + HEX.formatHex(value);
  }

  // ---- comparing ----

  private FromFunction sdkAnswer(byte[] request) throws Exception {
    return PeerWire.parse(sdk.handle(Slices.wrap(request)).get().toByteArray());
  }

  private void assertSameAnswer(byte[] request) throws Exception {
    FromFunction expected;
    try {
      expected = sdkAnswer(request);
    } catch (ExecutionException e) {
      throw new AssertionError("premise: the SDK answers " + HEX.formatHex(request), e);
    }
    FromFunction actual;
    try {
      actual = PeerWire.parse(ours.invoke(request));
    } catch (RuntimeException e) {
      throw new AssertionError(
          "StateKit refused " + HEX.formatHex(request) + ", the SDK answers " + expected, e);
    }
    assertEquals(expected, actual, "answers to " + HEX.formatHex(request));
  }

  private void assertBothRefuse(byte[] request) {
    assertThrows(
        ExecutionException.class,
        () -> sdk.handle(Slices.wrap(request)).get(),
        "premise: the SDK refuses " + HEX.formatHex(request));
    assertThrows(
        MalformedRequestException.class,
        () -> ours.invoke(request),
        "the SDK refuses " + HEX.formatHex(request) + ", StateKit did not refuse it as malformed");
  }

  /** Both refuse, or both answer the same. */
  private void assertSameOutcome(byte[] request) throws Exception {
    boolean sdkRefuses;
    try {
      sdk.handle(Slices.wrap(request)).get();
      sdkRefuses = false;
    } catch (ExecutionException e) {
      sdkRefuses = true;
    }
    if (sdkRefuses) {
      assertBothRefuse(request);
    } else {
      assertSameAnswer(request);
    }
  }

  // ---- wire ----

  private static byte[] varint(long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while ((value & ~0x7FL) != 0) {
      out.write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
    return out.toByteArray();
  }

  private static byte[] raw(String hex) {
    return HEX.parseHex(hex);
  }

  private static byte[] address(String namespace, String type, String id) {
    return concat(string(1, namespace), string(2, type), string(3, id));
  }

  private static final byte[] TARGET = field(1, address("test", "echo", "a"));

  private static byte[] typed(String type, String hasValue, String valueHex) {
    return concat(string(1, type), raw(hasValue), field(3, raw(valueHex)));
  }

  private static byte[] intState(int value) {
    return PeerWire.integer(value).toByteArray();
  }

  private static byte[] state(byte[]... parts) {
    return field(2, parts);
  }

  private static final byte[] SEEN_ONE = state(string(1, "seen"), field(2, intState(1)));

  private static byte[] invocation(byte[]... parts) {
    return field(3, parts);
  }

  private static byte[] argument(byte[]... pieces) {
    return field(2, pieces);
  }

  private static byte[] request(byte[]... batch) {
    return field(100, batch);
  }

  private static byte[] simple(String type, String valueHex) {
    return invocation(argument(typed(type, "1001", valueHex)));
  }

  // ---- has_value ----

  @Test
  void hasValueOfTwoOrOfAMultiByteOneRuns() throws Exception {
    for (String hasValue : new String[] {"1002", "108001", "10ff7f", "1080808080808080808001"}) {
      assertSameAnswer(
          request(TARGET, SEEN_ONE, invocation(argument(typed("a/b", hasValue, "01")))));
    }
  }

  @Test
  void aTenByteHasValueLastInTheArgument() throws Exception {
    for (String tenth : new String[] {"00", "01", "7f"}) {
      byte[] argument =
          concat(string(1, "a/b"), field(3, raw("01")), raw("10808080808080808080" + tenth));
      assertSameOutcome(request(TARGET, SEEN_ONE, invocation(argument(argument))));
      // Also with the ten bytes ending the whole request.
      assertSameOutcome(request(TARGET, SEEN_ONE, invocation(argument(argument))));
    }
  }

  @Test
  void hasValueFalseInOnePieceTrueInAnother() throws Exception {
    assertSameAnswer(
        request(
            TARGET,
            SEEN_ONE,
            invocation(argument(typed("a/b", "1000", "01")), argument(raw("1001")))));
    assertSameAnswer(
        request(
            TARGET,
            SEEN_ONE,
            invocation(argument(typed("a/b", "1001", "01")), argument(typed("", "1000", "")))));
    assertBothRefuse(
        request(TARGET, SEEN_ONE, invocation(argument(typed("a/b", "10011000", "01")))));
    assertSameAnswer(
        request(TARGET, SEEN_ONE, invocation(argument(typed("a/b", "10001001", "01")))));
  }

  // ---- argument types ----

  @Test
  void argumentTypesInPiecesAndRepeatedFields() throws Exception {
    // the type's last occurrence in a piece counts, even "", and an empty piece type keeps the last
    assertSameAnswer(
        request(
            TARGET,
            SEEN_ONE,
            invocation(
                argument(concat(string(1, "x/y"), string(1, "a/b"), raw("1001"))),
                argument(concat(string(1, ""), field(3, raw("05")))))));
    assertSameAnswer(
        request(
            TARGET,
            SEEN_ONE,
            simple("a/b", "01"),
            simple("a/c", "02"),
            simple("a/b", "03"),
            simple("a/b", "04"),
            invocation(argument(typed("a/c", "1001", "05")), argument(typed("a/b", "1001", ""))),
            simple("a/c", "06")));
  }

  /**
   * Two requests answered one after the other, their argument types at the same offsets and of the
   * same length but different: the second must see its own.
   */
  @Test
  void typesAtTheSameOffsetsInTwoRequests() throws Exception {
    for (String[] pair :
        new String[][] {{"a/b", "a/c"}, {"test/aaaaaaaa", "test/aaaaaaab"}, {"x/y", "y/x"}}) {
      assertSameAnswer(request(TARGET, SEEN_ONE, simple(pair[0], "01"), simple(pair[0], "02")));
      assertSameAnswer(request(TARGET, SEEN_ONE, simple(pair[1], "01"), simple(pair[1], "02")));
      assertSameAnswer(request(TARGET, SEEN_ONE, simple(pair[0], "01"), simple(pair[1], "02")));
      assertSameAnswer(request(TARGET, SEEN_ONE, simple(pair[1], "01"), simple(pair[0], "02")));
    }
  }

  // ---- state names ----

  @Test
  void stateNamesRepeatedInOneState() throws Exception {
    // last occurrence counts
    assertSameAnswer(
        request(
            TARGET,
            state(string(1, "other"), string(1, "seen"), field(2, intState(4))),
            simple("a/b", "")));
    // last is "" (the state is unnamed: missing)
    assertSameAnswer(
        request(
            TARGET,
            state(string(1, "seen"), string(1, ""), field(2, intState(4))),
            simple("a/b", "")));
    // last is "seen" after ""
    assertSameAnswer(
        request(
            TARGET,
            state(string(1, ""), string(1, "seen"), field(2, intState(4))),
            simple("a/b", "")));
    // name after the value, and a prefix name / longer name
    assertSameAnswer(
        request(
            TARGET,
            state(string(1, "see"), field(2, intState(7))),
            state(string(1, "seenx"), field(2, intState(8))),
            state(field(2, intState(5)), string(1, "seen")),
            simple("a/b", "")));
    // a name of non-ASCII, and then the declared one
    assertSameAnswer(
        request(
            TARGET,
            state(string(1, "s\u00e9en"), field(2, intState(7))),
            state(string(1, "seen\u00e9"), field(2, intState(7))),
            SEEN_ONE,
            simple("a/b", "")));
  }

  // ---- callers ----

  @Test
  void callersInPieces() throws Exception {
    byte[] arg = argument(typed("a/b", "1001", "01"));
    assertSameAnswer(
        request(
            TARGET,
            SEEN_ONE,
            invocation(field(1, address("n", "t", "i")), arg, field(1, string(3, "j")))));
    assertSameAnswer(
        request(
            TARGET,
            SEEN_ONE,
            invocation(
                field(1, concat(string(1, "n"), string(1, "m"))),
                field(1, concat(string(2, "t"), string(3, "i"))),
                arg),
            invocation(field(1, address("", "", "")), arg),
            invocation(field(1, address("p", "q", "r")), arg, field(1, address("", "", "")))));
    // a caller's namespace given then emptied in the same piece: the SDK refuses
    assertSameOutcome(
        request(
            TARGET,
            SEEN_ONE,
            invocation(
                field(1, concat(string(1, "n"), string(2, "t"), string(3, "i"), string(1, ""))),
                arg)));
  }

  // ---- UTF-8 at the end of a field, followed by bytes that would complete it ----

  @Test
  void utf8CutAtTheEndOfAFieldFollowedByContinuationBytes() throws Exception {
    // A89F02 is the tag of field 37, varint (0xA8 0x02), then a value: 0xA8 would complete a cut
    // sequence if read past the field.
    byte[] unknownAfter = raw("a80201");
    String[] tails = {
      "c3",
      "e282",
      "f09f98",
      "eda080",
      "c080",
      "f4908080",
      "f48fbfbf",
      "e0a080",
      "e09f80",
      "f0908080",
      "f08f8080",
      "80",
      "f8",
      "c2",
      "dfbf",
      "efbfbf",
      "eda0"
    };
    for (int prefix = 0; prefix <= 17; prefix++) {
      String ascii = "abcdefghijklmnopq".substring(0, prefix);
      for (String tail : tails) {
        byte[] bad = concat(ascii.getBytes(StandardCharsets.US_ASCII), raw(tail));
        // in a caller id
        assertSameOutcome(
            request(
                TARGET,
                SEEN_ONE,
                invocation(
                    field(1, concat(string(1, "n"), string(2, "t"), field(3, bad), unknownAfter)),
                    argument(typed("a/b", "1001", "01")))));
        // in an argument type name: "a/" + bad
        assertSameOutcome(
            request(
                TARGET,
                SEEN_ONE,
                invocation(
                    argument(
                        concat(
                            field(1, concat(raw("612f"), bad)),
                            unknownAfter,
                            raw("1001"),
                            field(3, raw("01")))))));
        // in a state name
        assertSameOutcome(
            request(
                TARGET,
                SEEN_ONE,
                state(field(1, bad), unknownAfter, field(2, intState(3))),
                simple("a/b", "01")));
        // in the target's id
        assertSameOutcome(
            request(
                field(1, concat(string(1, "test"), string(2, "echo"), field(3, bad), unknownAfter)),
                SEEN_ONE,
                simple("a/b", "01")));
      }
    }
  }
}
