package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.longValue;
import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.IncompatibleStateException;
import dev.statekit.function.UnknownFunctionException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.junit.jupiter.api.Test;

/** Every bad request gets one of the kit's exceptions with a message that says what was wrong. */
class BadInputTest {
  private final RequestReplyHandler handler =
      new RequestReplyHandler(ConformanceFunctions.registry());

  private final byte[] valid =
      request("test", "counter", "a")
          .state("seen")
          .state("total")
          .state("note")
          .message(string("hello"))
          .bytes();

  @Test
  void garbageIsNotAToFunction() {
    byte[] garbage = "definitely not protobuf \u0000\u00ff".getBytes(StandardCharsets.ISO_8859_1);

    var e = assertThrows(MalformedRequestException.class, () -> handler.invoke(garbage));

    assertTrue(e.getMessage().contains("ToFunction"), e.getMessage());
  }

  @Test
  void aTruncatedRequestIsRefused() {
    byte[] truncated = Arrays.copyOf(valid, valid.length - 3);

    var e = assertThrows(MalformedRequestException.class, () -> handler.invoke(truncated));

    assertTrue(e.getMessage().contains("not a StateFun ToFunction"), e.getMessage());
  }

  @Test
  void aRequestWithoutInvocationIsRefused() {
    var empty = assertThrows(MalformedRequestException.class, () -> handler.invoke(new byte[0]));
    assertTrue(empty.getMessage().contains("empty"), empty.getMessage());

    byte[] noBatch = ToFunction.newBuilder().build().toByteArray();
    assertEquals(0, noBatch.length);
    byte[] unknownFieldOnly = {0x08, 0x01};
    var noInvocation =
        assertThrows(MalformedRequestException.class, () -> handler.invoke(unknownFieldOnly));
    assertTrue(
        noInvocation.getMessage().contains("no invocation batch"), noInvocation.getMessage());
  }

  /** A batch of no messages is answered as statefun-sdk-java answers it: nothing to do. */
  @Test
  void aBatchOfNoMessagesIsAnsweredWithNoEffects() throws Exception {
    byte[] noMessages =
        request("test", "counter", "a").state("seen").state("total").state("note").bytes();

    FromFunction answer = FromFunction.parseFrom(handler.invoke(noMessages));

    assertTrue(answer.hasInvocationResult(), answer.toString());
    assertEquals(
        FromFunction.InvocationResponse.getDefaultInstance(), answer.getInvocationResult());
  }

  @Test
  void anArgumentWithoutTypeIsRefused() {
    byte[] untyped =
        request("test", "counter", "a")
            .state("seen")
            .state("total")
            .state("note")
            .message(TypedValue.newBuilder().setHasValue(true).build())
            .bytes();

    var e = assertThrows(MalformedRequestException.class, () -> handler.invoke(untyped));

    assertTrue(e.getMessage().contains("typename"), e.getMessage());
  }

  @Test
  void aBadArgumentTypeIsRefusedEveryTimeAndAfterGoodOnes() {
    // The handler skips the check for a type name it has already passed: a bad one must never be
    // remembered as passed, whether it comes alone, again, or after good arguments in its batch.
    byte[] bad =
        request("test", "counter", "a")
            .state("seen")
            .state("total")
            .state("note")
            .message(TypedValue.newBuilder().setTypename("no-slash").setHasValue(true).build())
            .bytes();
    byte[] goodThenBad =
        request("test", "counter", "a")
            .state("seen")
            .state("total")
            .state("note")
            .message(string("hello"))
            .message(TypedValue.newBuilder().setTypename("no-slash").setHasValue(true).build())
            .bytes();

    handler.invoke(valid);
    for (int round = 0; round < 3; round++) {
      var alone = assertThrows(MalformedRequestException.class, () -> handler.invoke(bad));
      assertTrue(alone.getMessage().contains("'no-slash'"), alone.getMessage());
    }
    for (int round = 0; round < 3; round++) {
      var second = assertThrows(MalformedRequestException.class, () -> handler.invoke(goodThenBad));
      assertTrue(second.getMessage().contains("Invocation 2"), second.getMessage());
    }
    handler.invoke(valid);
  }

  @Test
  void anIncompleteTargetIsRefused() {
    byte[] noId = request("test", "counter", "").message(string("x")).bytes();

    var e = assertThrows(MalformedRequestException.class, () -> handler.invoke(noId));

    assertTrue(e.getMessage().contains("target address"), e.getMessage());
  }

  @Test
  void anUnknownFunctionTypeNamesTheRegisteredOnes() {
    byte[] unknown = request("test", "nobody", "a").message(string("x")).bytes();

    var e = assertThrows(UnknownFunctionException.class, () -> handler.invoke(unknown));

    assertTrue(e.getMessage().contains("test/nobody"), e.getMessage());
    assertTrue(e.getMessage().contains("test/counter"), e.getMessage());
  }

  @Test
  void aStateOfAnotherTypeIsRefused() {
    byte[] wrongType =
        request("test", "counter", "a")
            .state("seen", longValue(3))
            .state("total")
            .state("note")
            .message(string("x"))
            .bytes();

    var e = assertThrows(IncompatibleStateException.class, () -> handler.invoke(wrongType));

    assertTrue(e.getMessage().contains("io.statefun.types/long"), e.getMessage());
    assertTrue(e.getMessage().contains("io.statefun.types/int"), e.getMessage());
  }

  @Test
  void aThrowingFunctionFailsTheWholeBatchWithItsReason() {
    byte[] failing =
        request("test", "counter", "a")
            .state("seen")
            .state("total")
            .state("note")
            .message(string("fine"))
            .message(string("boom"))
            .bytes();

    var e = assertThrows(FunctionInvocationException.class, () -> handler.invoke(failing));

    assertEquals(1, e.invocationIndex());
    assertTrue(e.getMessage().contains("test/counter/a failed on message 2"), e.getMessage());
    assertTrue(e.getMessage().contains("boom on purpose"), e.getMessage());
  }

  @Test
  void damagedRequestsNeverEscapeTheKitsExceptions() {
    Random random = new Random(42);
    int answered = 0;
    for (int round = 0; round < 3000; round++) {
      byte[] damaged = valid.clone();
      int flips = 1 + random.nextInt(3);
      for (int i = 0; i < flips; i++) {
        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
      }
      if (random.nextBoolean()) {
        damaged = Arrays.copyOf(damaged, random.nextInt(damaged.length + 1));
      }
      try {
        byte[] answer = handler.invoke(damaged);
        FromFunction parsed = PeerWire.parse(answer);
        assertTrue(parsed.hasInvocationResult() || parsed.hasIncompleteInvocationContext());
        answered++;
      } catch (MalformedRequestException
          | UnknownFunctionException
          | IncompatibleStateException
          | FunctionInvocationException e) {
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
      }
    }
    assertTrue(answered > 0, "some damaged requests still parse and are answered");
  }
}
