package dev.statekit.protocol;

import static dev.statekit.protocol.WireBytes.concat;
import static dev.statekit.protocol.WireBytes.field;
import static dev.statekit.protocol.WireBytes.string;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Unknown groups nested as deep as protobuf-java allows, in each message of a request. The SDK's
 * protobuf-java counts one recursion limit of 100 for messages and groups together: groups in the
 * ToFunction may nest 100 deep, in the batch (one message deep) 99, in a state, an invocation or
 * the target 98, in a caller or a typed value 97. The reader counts the groups alone, from 0 in
 * every message, so it takes 100 everywhere and answers requests the SDK refuses.
 */
class NestedGroupDepthTest {
  /** protobuf-java's default recursion limit. */
  private static final int RECURSION_LIMIT = 100;

  private final RequestReplyHandler handler =
      new RequestReplyHandler(ConformanceFunctions.registry());

  @Test
  void groupsAreRefusedPastTheDepthTheSdkTakesInEveryMessage() {
    List<Executable> checks = new ArrayList<>();
    for (Place place : Place.values()) {
      int most = RECURSION_LIMIT - place.messageDepth;
      for (int depth = most - 1; depth <= most + 1; depth++) {
        byte[] request = request(place, groups(depth));
        boolean sdkTakes = ToFunctionReaderFuzzTest.asTheSdkReadsIt(request) != null;
        boolean readerTakes = readerTakes(request);
        String what = depth + " groups in the " + place.description;
        boolean withinLimit = depth <= most;
        checks.add(() -> assertEquals(withinLimit, sdkTakes, what + ": the SDK (premise)"));
        checks.add(() -> assertEquals(sdkTakes, readerTakes, what + ": the reader as the SDK"));
      }
    }
    assertAll(checks);
  }

  /**
   * The handler answered what the SDK refuses: 100 groups in a batch that is otherwise whole, one
   * more than the 99 the SDK takes there.
   */
  @Test
  void theHandlerRefusesABatchTheSdkCannotParse() {
    byte[] request = request(Place.BATCH, groups(RECURSION_LIMIT));
    assertNull(ToFunctionReaderFuzzTest.asTheSdkReadsIt(request), "the SDK refuses it (premise)");

    assertThrows(MalformedRequestException.class, () -> handler.invoke(request));
  }

  private static boolean readerTakes(byte[] request) {
    try {
      ToFunctionReader.read(request, new StringInterner());
      return true;
    } catch (MalformedRequestException e) {
      return false;
    }
  }

  /** Where the groups go, and how many messages deep that is (the ToFunction is 0). */
  private enum Place {
    TO_FUNCTION(0, "ToFunction"),
    BATCH(1, "batch"),
    STATE(2, "state"),
    INVOCATION(2, "invocation"),
    TARGET(2, "target address"),
    STATE_VALUE(3, "state's typed value"),
    CALLER(3, "caller address"),
    ARGUMENT(3, "argument's typed value");

    final int messageDepth;
    final String description;

    Place(int messageDepth, String description) {
      this.messageDepth = messageDepth;
      this.description = description;
    }
  }

  /**
   * A request for test/counter/a with its three states and one message from a caller, whole and
   * answerable, with {@code groups} added to the message {@code place} names.
   */
  private static byte[] request(Place place, byte[] groups) {
    byte[] target =
        concat(
            string(1, "test"),
            string(2, "counter"),
            string(3, "a"),
            in(place, Place.TARGET, groups));
    byte[] seenValue =
        concat(
            string(1, "io.statefun.types/int"),
            new byte[] {0x10, 0x01},
            field(3, new byte[] {0x0d, 0x05, 0x00, 0x00, 0x00}),
            in(place, Place.STATE_VALUE, groups));
    byte[] seen = concat(string(1, "seen"), field(2, seenValue), in(place, Place.STATE, groups));
    byte[] caller =
        concat(string(1, "c"), string(2, "d"), string(3, "e"), in(place, Place.CALLER, groups));
    byte[] argument =
        concat(
            string(1, "io.statefun.types/string"),
            new byte[] {0x10, 0x01},
            field(3, string(1, "hello")),
            in(place, Place.ARGUMENT, groups));
    byte[] invocation =
        concat(field(1, caller), field(2, argument), in(place, Place.INVOCATION, groups));
    byte[] batch =
        concat(
            field(1, target),
            field(2, seen),
            field(2, string(1, "total")),
            field(2, string(1, "note")),
            field(3, invocation),
            in(place, Place.BATCH, groups));
    return concat(field(100, batch), in(place, Place.TO_FUNCTION, groups));
  }

  private static byte[] in(Place place, Place here, byte[] groups) {
    return place == here ? groups : new byte[0];
  }

  /** {@code depth} unknown groups of field 9, each inside the one before. */
  private static byte[] groups(int depth) {
    byte[] bytes = new byte[2 * depth];
    for (int i = 0; i < depth; i++) {
      bytes[i] = (9 << 3) | 3;
      bytes[depth + i] = (9 << 3) | 4;
    }
    return bytes;
  }
}
