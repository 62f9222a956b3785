package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.parse;
import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.function.Address;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/**
 * The request reader is kept by the thread and reused: what one request read never shows in the
 * next, in a request handled inside another on the same thread, or after a request that failed.
 */
class ReaderReuseTest {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final TypeName OUT = TypeName.of("test", "out");

  private RequestReplyHandler handler;

  /** Echoes each argument to the egress; "nest N" first answers a batch of N inside this one. */
  ReaderReuseTest() {
    handler =
        new RequestReplyHandler(
            StatefulFunctions.builder()
                .withFunction(
                    ECHO,
                    (context, message) -> {
                      String argument = message.asUtf8String();
                      if (argument.startsWith("nest ")) {
                        int size = Integer.parseInt(argument.substring(5));
                        List<String> inner = echoed(handler.invoke(batch("inner", size)));
                        assertEquals(numbered("inner", size), inner);
                      }
                      if (argument.equals("fail")) {
                        throw new IllegalStateException("asked to fail");
                      }
                      context.send(EgressMessageBuilder.forEgress(OUT).withValue(argument).build());
                    })
                .build());
  }

  @Test
  void aBatchHandledInsideAnotherLeavesTheOuterOneIntact() {
    PeerWire.Request outer = request("test", "echo", "outer");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String argument = i == 2 ? "nest 40" : "outer-" + i;
      outer.message(string(argument));
      expected.add(argument);
    }

    assertEquals(expected, echoed(handler.invoke(outer.bytes())));
  }

  @Test
  void aLargeBatchThenSmallOnesReadOnlyTheirOwn() {
    assertEquals(numbered("big", 3000), echoed(handler.invoke(batch("big", 3000))));
    assertEquals(numbered("small", 1), echoed(handler.invoke(batch("small", 1))));
    assertEquals(numbered("ten", 10), echoed(handler.invoke(batch("ten", 10))));
  }

  @Test
  void aRequestAfterAFailedOneReadsOnlyItsOwn() {
    byte[] good = batch("good", 3);
    byte[] truncated = Arrays.copyOf(good, good.length - 4);
    byte[] failing =
        request("test", "echo", "f").message(string("x")).message(string("fail")).bytes();

    assertThrows(MalformedRequestException.class, () -> handler.invoke(truncated));
    assertEquals(numbered("good", 3), echoed(handler.invoke(good)));
    assertThrows(FunctionInvocationException.class, () -> handler.invoke(failing));
    assertEquals(numbered("after", 2), echoed(handler.invoke(batch("after", 2))));
  }

  @Test
  void manyRequestsOnOneThreadEachReadTheirOwnTypesValuesAndCallers() {
    RequestReplyHandler described =
        new RequestReplyHandler(
            StatefulFunctions.builder()
                .withFunction(
                    ECHO,
                    (context, message) ->
                        context.send(
                            EgressMessageBuilder.forEgress(OUT)
                                .withValue(
                                    message.valueTypeName().asString()
                                        + " "
                                        + new String(message.rawValue(), StandardCharsets.UTF_8)
                                        + " "
                                        + context.caller().map(Address::id).orElse("-"))
                                .build()))
                .build());
    // Past the length the thread keeps its arrays at, with a type that changes within a batch and
    // from one batch to the next, and a caller on some messages only.
    for (int r = 0; r < 3000; r++) {
      PeerWire.Request request = request("test", "echo", "r" + r);
      List<String> expected = new ArrayList<>();
      int size = r % 100 == 99 ? 1100 : r % 4 + 1;
      for (int i = 0; i < size; i++) {
        String type = "t/type-" + (r + i / 2) % 3;
        String value = "v" + r + "-" + i;
        TypedValue argument =
            TypedValue.newBuilder()
                .setTypename(type)
                .setHasValue(true)
                .setValue(ByteString.copyFromUtf8(value))
                .build();
        if (i % 3 == 1) {
          request.message(PeerWire.address("test", "caller", "c" + i), argument);
          expected.add(type + " " + value + " c" + i);
        } else {
          request.message(argument);
          expected.add(type + " " + value + " -");
        }
      }
      assertEquals(expected, echoed(described.invoke(request.bytes())), "request " + r);
    }
  }

  private static byte[] batch(String prefix, int size) {
    PeerWire.Request request = request("test", "echo", prefix);
    for (String argument : numbered(prefix, size)) {
      request.message(string(argument));
    }
    return request.bytes();
  }

  private static List<String> numbered(String prefix, int size) {
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      arguments.add(prefix + "-" + i);
    }
    return arguments;
  }

  private static List<String> echoed(byte[] answer) {
    List<String> values = new ArrayList<>();
    for (FromFunction.EgressMessage egress :
        parse(answer).getInvocationResult().getOutgoingEgressesList()) {
      values.add(PeerWire.value(Types.stringType(), egress.getArgument()));
    }
    return values;
  }
}
