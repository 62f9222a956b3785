package dev.statekit.protocol;

import static dev.statekit.protocol.ForgedRequestBound.allocatedBy;
import static dev.statekit.protocol.ForgedRequestBound.assertWithinBound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.FunctionInvocationException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A forged {@code ToFunction} packed with the smallest batch entries the wire allows (invocations
 * without an argument, tiny arguments, callers, empty and tiny states), mostly the size of the HTTP
 * endpoint's request limit, is answered as a small one with the same entries is, without allocating
 * more than a few times its own size: the reader keeps no invocation past the first the handler
 * refuses, nor states named "", and sizes its arrays by what the rest of the request can hold
 * rather than by growing fourfold past the count.
 */
class ForgedBatchMemoryTest {
  /** The HTTP endpoint's default request limit: the most one request can bring. */
  private static final int PAYLOAD_BYTES = 32 * 1024 * 1024;

  /** More than the ToFunction's tag and length and the target and states take. */
  private static final int HEAD_BYTES = 64;

  private static final byte[] NONE = {};

  private static final byte[] EMPTY_INVOCATION = {0x1a, 0x00};

  /** An invocation whose argument is a typed value of type "x" and no value. */
  private static final byte[] BAD_TYPE_INVOCATION = {0x1a, 0x05, 0x12, 0x03, 0x0a, 0x01, 'x'};

  /**
   * An invocation whose argument is a typed value of type "a/b", has_value set, and no value: the
   * smallest the handler runs (without has_value it refuses the first, and the reader keeps none
   * after it).
   */
  private static final byte[] GOOD_TYPE_INVOCATION = {
    0x1a, 0x09, 0x12, 0x07, 0x0a, 0x03, 'a', '/', 'b', 0x10, 0x01
  };

  /** An invocation from a caller of id "a" and no namespace or type, without an argument. */
  private static final byte[] CALLER_ONLY_INVOCATION = {0x1a, 0x05, 0x0a, 0x03, 0x1a, 0x01, 'a'};

  /** As above with the id "é": not ASCII, so not checked by the ASCII shortcut. */
  private static final byte[] NON_ASCII_CALLER_ONLY_INVOCATION = {
    0x1a, 0x06, 0x0a, 0x04, 0x1a, 0x02, (byte) 0xC3, (byte) 0xA9
  };

  private static final byte[] EMPTY_STATE = {0x12, 0x00};

  /** A state named "x", then one named "y", neither with a value. */
  private static final byte[] TWO_NAMED_STATES = {
    0x12, 0x03, 0x0a, 0x01, 'x', 0x12, 0x03, 0x0a, 0x01, 'y'
  };

  private final RequestReplyHandler handler =
      new RequestReplyHandler(ConformanceFunctions.registry());

  @Test
  void emptyInvocations() {
    assertSameRefusalWithinBound("empty invocations", NONE, EMPTY_INVOCATION, NONE, "''");
  }

  @Test
  void tinyInvocationsWithAnArgumentOfABadType() {
    assertSameRefusalWithinBound(
        "invocations with a bad argument type", NONE, BAD_TYPE_INVOCATION, NONE, "'x'");
  }

  @Test
  void tinyInvocationsFromACallerWithoutAnArgument() {
    assertSameRefusalWithinBound(
        "invocations with only a caller", NONE, CALLER_ONLY_INVOCATION, NONE, "''");
  }

  @Test
  void invocationsFromACallerWithANonAsciiIdWithoutAnArgument() {
    assertSameRefusalWithinBound(
        "invocations with only a caller of a non-ASCII id",
        NONE,
        NON_ASCII_CALLER_ONLY_INVOCATION,
        NONE,
        "''");
  }

  /**
   * Arguments of a well-formed type must all be kept (each could run): the first fails in the
   * function, and the others cost only their slots. One invocation more than a power of four, the
   * count at which the arrays grew fourfold past what was needed.
   */
  @Test
  void tinyInvocationsWithAnArgumentOfAGoodTypeAfterAFailingOne() {
    byte[] boom = invocation(utf8String("boom"));
    byte[] forged = request(boom, GOOD_TYPE_INVOCATION, 1 << 20, NONE);
    String answer = failure(request(boom, GOOD_TYPE_INVOCATION, 3, NONE));
    // The premise: every invocation is one the handler would run, so the reader keeps them all.
    // Were the filler refused, the reader would keep two and this would measure nothing.
    ToFunctionReader read = ToFunctionReader.read(forged, new StringInterner());
    assertEquals(
        (1 << 20) + 1,
        read.keptInvocationCount,
        "invocations the reader kept of the forged request");

    long allocated = allocatedBy(() -> assertEquals(answer, failure(forged)));

    assertWithinBound("invocations with a good argument type", forged, allocated);
  }

  @Test
  void emptyStatesBeforeAnEmptyInvocation() {
    assertSameRefusalWithinBound(
        "empty states", NONE, EMPTY_STATE, EMPTY_INVOCATION, "Invocation 1 ");
  }

  /** Named by two names no function declares, in turn (a name is not repeated next to itself). */
  @Test
  void namedStatesBeforeAnEmptyInvocation() {
    assertSameRefusalWithinBound(
        "named states", NONE, TWO_NAMED_STATES, EMPTY_INVOCATION, "Invocation 1 ");
  }

  @Test
  void statesWithValuesBeforeAnEmptyInvocation() {
    byte[] twoStates = concat(stateWithValue('x'), stateWithValue('y'));
    assertSameRefusalWithinBound(
        "states with values", NONE, twoStates, EMPTY_INVOCATION, "Invocation 1 ");
  }

  // ---- measuring ----

  /**
   * A request of {@code filler} repeated up to the request limit (between {@code first} and {@code
   * last}) is refused as one of three repeats is, at its first invocation, whose refusal names
   * {@code named}, and within the bound.
   */
  private void assertSameRefusalWithinBound(
      String what, byte[] first, byte[] filler, byte[] last, String named) {
    String answer = refusal(request(first, filler, 3, last));
    assertTrue(answer.contains("Invocation 1 ") && answer.contains(named), answer);
    int repeats = (PAYLOAD_BYTES - HEAD_BYTES - first.length - last.length) / filler.length;
    byte[] forged = request(first, filler, repeats, last);
    assertTrue(forged.length <= PAYLOAD_BYTES, "the request is past the limit");

    long allocated = allocatedBy(() -> assertEquals(answer, refusal(forged)));

    assertWithinBound(what, forged, allocated);
  }

  private String refusal(byte[] request) {
    return assertThrows(MalformedRequestException.class, () -> handler.invoke(request))
        .getMessage();
  }

  private String failure(byte[] request) {
    return assertThrows(FunctionInvocationException.class, () -> handler.invoke(request))
        .getMessage();
  }

  // ---- building requests (by hand: the generated classes would take gigabytes for these) ----

  /**
   * A {@code ToFunction} for test/counter/a with its three states, {@code first}, {@code filler}
   * {@code repeats} times, then {@code last}.
   */
  private static byte[] request(byte[] first, byte[] filler, int repeats, byte[] last) {
    ByteArrayOutputStream batch = new ByteArrayOutputStream();
    field(batch, 1, address("test", "counter", "a"));
    for (String name : new String[] {"seen", "total", "note"}) {
      field(batch, 2, string(1, name));
    }
    batch.writeBytes(first);
    for (int i = 0; i < repeats; i++) {
      batch.write(filler, 0, filler.length);
    }
    batch.writeBytes(last);
    ByteArrayOutputStream toFunction = new ByteArrayOutputStream(batch.size() + 8);
    field(toFunction, 100, batch.toByteArray());
    return toFunction.toByteArray();
  }

  private static byte[] address(String namespace, String type, String id) {
    return concat(string(1, namespace), string(2, type), string(3, id));
  }

  private static byte[] invocation(byte[] typedValue) {
    ByteArrayOutputStream argument = new ByteArrayOutputStream();
    field(argument, 2, typedValue);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    field(out, 3, argument.toByteArray());
    return out.toByteArray();
  }

  /** A typed value of StateFun's string type (a protobuf StringWrapper). */
  private static byte[] utf8String(String text) {
    byte[] wrapper = string(1, text);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(string(1, "io.statefun.types/string"));
    out.write(0x10);
    out.write(0x01);
    field(out, 3, wrapper);
    return out.toByteArray();
  }

  /** A state named {@code name} whose value has has_value set, no type and no bytes. */
  private static byte[] stateWithValue(char name) {
    return new byte[] {0x12, 0x07, 0x0a, 0x01, (byte) name, 0x12, 0x02, 0x10, 0x01};
  }

  private static byte[] string(int field, String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    field(out, field, text.getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static void field(ByteArrayOutputStream out, int field, byte[] bytes) {
    varint(out, (field << 3) | 2);
    varint(out, bytes.length);
    out.writeBytes(bytes);
  }

  private static void varint(ByteArrayOutputStream out, int value) {
    while ((value & ~0x7F) != 0) {
      out.write((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out.write(value);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
