package dev.statekit.protocol;

import static dev.statekit.protocol.ForgedRequestBound.allocatedBy;
import static dev.statekit.protocol.ForgedRequestBound.assertWithinBound;
import static dev.statekit.protocol.WireBytes.concat;
import static dev.statekit.protocol.WireBytes.field;
import static dev.statekit.protocol.WireBytes.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.FunctionInvocationException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The bound ForgedBatchMemoryTest sets (a request allocates at most four times its size, answered
 * as a small one with the same entries is) for what it does not try: the strings and addresses the
 * reader still decodes in the part of the batch it keeps (the target, the states, the invocations
 * up to the first refused one). A repeated address allocates a piece per occurrence, an id or a
 * string the interner has not seen is decoded and copied per occurrence, and a refusal quotes a
 * string whole.
 */
class ForgedStringsMemoryTest {
  /** The HTTP endpoint's default request limit, as in ForgedBatchMemoryTest. */
  private static final int PAYLOAD_BYTES = 32 * 1024 * 1024;

  /** More than the ToFunction's tag and length, the target and the states take. */
  private static final int HEAD_BYTES = 128;

  private static final byte[] EMPTY_ADDRESS_PIECE = {0x0a, 0x00};
  private static final byte[] EMPTY_INVOCATION = {0x1a, 0x00};

  /** A typed value's has_value, true. */
  private static final byte[] HAS_VALUE = {0x10, 0x01};

  private final RequestReplyHandler handler =
      new RequestReplyHandler(ConformanceFunctions.registry());

  /**
   * The target's field again and again, each empty ({@code 0A 00}): protobuf merges each into the
   * target and nothing changes, but the reader allocates a three-string piece for each (16 times
   * the request).
   */
  @Test
  void aTargetSentInMillionsOfEmptyPieces() {
    IntFunction<byte[]> request =
        repeats -> toFunction(head(), repeat(EMPTY_ADDRESS_PIECE, repeats), EMPTY_INVOCATION);
    assertSameRefusalWithinBound("a target in empty pieces", request, EMPTY_ADDRESS_PIECE.length);
  }

  /** The same in the first invocation's caller, which the reader always keeps. */
  @Test
  void aCallerSentInMillionsOfEmptyPieces() {
    IntFunction<byte[]> request =
        repeats -> toFunction(head(), field(3, repeat(EMPTY_ADDRESS_PIECE, repeats)));
    assertSameRefusalWithinBound("a caller in empty pieces", request, EMPTY_ADDRESS_PIECE.length);
  }

  /**
   * A caller whose id comes millions of times ({@code 1A 01 61}): protobuf keeps the last, the
   * reader decodes each into a string of its own (ids are not interned).
   */
  @Test
  void aCallerIdSentMillionsOfTimes() {
    byte[] id = {0x1a, 0x01, 'a'};
    IntFunction<byte[]> request =
        repeats -> toFunction(head(), field(3, field(1, repeat(id, repeats))));
    assertSameRefusalWithinBound("a caller id sent again and again", request, id.length);
  }

  /**
   * An argument whose type name comes millions of times, each a different two-character name
   * without a slash: protobuf keeps the last, the reader interns each, and the interner's table of
   * 512 slots misses nearly every time, copying the bytes and decoding them.
   */
  @Test
  void anArgumentTypeNameSentWithMillionsOfDistinctValues() {
    IntFunction<byte[]> request =
        repeats -> toFunction(head(), field(3, field(2, distinctNames(1, repeats))));
    assertSameRefusalWithinBound(
        "an argument type name sent with distinct values", request, distinctName(1, 0).length);
  }

  /**
   * States of millions of distinct two-character names no function declares (a runtime sends one
   * per declared state; a forged request may send any): the reader decodes and keeps every name,
   * and the interner misses nearly every time.
   */
  @Test
  void statesOfMillionsOfDistinctNames() {
    IntFunction<byte[]> request =
        repeats -> {
          ByteArrayOutputStream states = new ByteArrayOutputStream();
          for (int i = 0; i < repeats; i++) {
            states.writeBytes(field(2, distinctName(1, i)));
          }
          return toFunction(head(), states.toByteArray(), EMPTY_INVOCATION);
        };
    assertSameRefusalWithinBound(
        "states of distinct names", request, field(2, distinctName(1, 0)).length);
  }

  /**
   * Invocations from a caller, of a good type and with has_value set, after one that fails in the
   * function: the reader keeps them all (each could run), and for each it allocates a caller piece
   * and its id string on top of its 17 bytes of slots, which ForgedBatchMemoryTest's bound does not
   * count. (Without has_value, the first of them is one the handler refuses, and none after it is
   * kept.)
   */
  @Test
  void invocationsFromACallerKeptAfterAFailingOne() {
    byte[] fromCaller =
        field(
            3,
            concat(
                field(1, concat(string(1, "a"), string(2, "b"), string(3, "c"))),
                field(2, concat(string(1, "a/b"), HAS_VALUE))));
    assertKeptAfterAFailingOneWithinBound(
        "invocations from a caller after a failing one", i -> fromCaller);
  }

  /**
   * Invocations of millions of distinct good argument types ({@code a/} and two characters), after
   * one that fails in the function: the reader keeps them all, and interns each type as it reads
   * it, the interner's 512 slots missing nearly every time (a copy of the bytes, a string, an
   * entry).
   */
  @Test
  void invocationsOfDistinctArgumentTypesKeptAfterAFailingOne() {
    assertKeptAfterAFailingOneWithinBound(
        "invocations of distinct argument types after a failing one",
        i -> field(3, field(2, concat(distinctName(1, "a/", i), HAS_VALUE))));
  }

  /**
   * One invocation whose argument type is the whole request, three-byte characters without a slash:
   * decoding takes twice the bytes as UTF-16 before trimming. (The refusal quoted the string whole
   * too; since it quotes at most 200 characters (Shown), the decoding is what is left.)
   */
  @Test
  void anArgumentTypeOfMillionsOfThreeByteCharacters() {
    byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
    int repeats = (PAYLOAD_BYTES - HEAD_BYTES) / euro.length;
    byte[] forged = toFunction(head(), field(3, field(2, field(1, repeat(euro, repeats)))));

    long allocated =
        allocatedBy(() -> assertTrue(refusal(forged).startsWith("Invocation 1 "), "the refusal"));

    assertWithinBound("an argument type of three-byte characters", forged, allocated);
  }

  // ---- measuring ----

  /**
   * A request of an invocation that fails in the function, then invocations {@code invocation}
   * builds (the {@code i}th of them, each of the same size) up to the limit, fails as the one with
   * three of them does, within the bound.
   */
  private void assertKeptAfterAFailingOneWithinBound(String what, IntFunction<byte[]> invocation) {
    byte[] boom = field(3, field(2, stringValue("boom")));
    int size = invocation.apply(0).length;
    int repeats = (PAYLOAD_BYTES - HEAD_BYTES - boom.length) / size;
    byte[] forged = toFunction(head(), boom, invocations(invocation, repeats));
    assertTrue(forged.length <= PAYLOAD_BYTES, "the request is past the limit");
    String answer = failure(toFunction(head(), boom, invocations(invocation, 3)));
    assertTrue(answer.contains("boom on purpose"), answer);

    long allocated = allocatedBy(() -> assertEquals(answer, failure(forged)));

    assertWithinBound(what, forged, allocated);
  }

  private static byte[] invocations(IntFunction<byte[]> invocation, int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < count; i++) {
      out.writeBytes(invocation.apply(i));
    }
    return out.toByteArray();
  }

  /**
   * The request {@code request} builds with as many repeats of an entry of {@code entryBytes} as
   * the limit holds is refused as the one with three repeats is, within the bound.
   */
  private void assertSameRefusalWithinBound(
      String what, IntFunction<byte[]> request, int entryBytes) {
    String answer = refusal(request.apply(3));
    assertTrue(answer.startsWith("Invocation 1 "), answer);
    byte[] forged = request.apply((PAYLOAD_BYTES - HEAD_BYTES) / entryBytes);
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

  // ---- building requests by hand (the generated classes would take gigabytes) ----

  /** The target test/counter/a and its three states, each without a value. */
  private static byte[] head() {
    ByteArrayOutputStream batch = new ByteArrayOutputStream();
    batch.writeBytes(field(1, concat(string(1, "test"), string(2, "counter"), string(3, "a"))));
    for (String name : new String[] {"seen", "total", "note"}) {
      batch.writeBytes(field(2, string(1, name)));
    }
    return batch.toByteArray();
  }

  /** A ToFunction whose batch is the parts in order. */
  private static byte[] toFunction(byte[]... batchParts) {
    return field(100, concat(batchParts));
  }

  /** Printable ASCII but '/': no two-character name of these is a namespace/name. */
  private static final String ALPHABET =
      "!\"#$%&'()*+,-.0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";

  /** Field {@code field} holding the {@code index}th of the two-character names of ALPHABET. */
  private static byte[] distinctName(int field, int index) {
    return distinctName(field, "", index);
  }

  /** As above, after {@code prefix}. */
  private static byte[] distinctName(int field, String prefix, int index) {
    int size = ALPHABET.length();
    int n = index % (size * size);
    return string(field, prefix + ALPHABET.charAt(n / size) + ALPHABET.charAt(n % size));
  }

  /** {@code count} distinct names in field {@code field}, the last one always the same. */
  private static byte[] distinctNames(int field, int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = count - 1; i >= 0; i--) {
      out.writeBytes(distinctName(field, i));
    }
    return out.toByteArray();
  }

  /** A typed value of StateFun's string type. */
  private static byte[] stringValue(String text) {
    return concat(
        string(1, "io.statefun.types/string"), new byte[] {0x10, 0x01}, field(3, string(1, text)));
  }

  private static byte[] repeat(byte[] entry, int times) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(entry.length * times);
    for (int i = 0; i < times; i++) {
      out.write(entry, 0, entry.length);
    }
    return out.toByteArray();
  }
}
