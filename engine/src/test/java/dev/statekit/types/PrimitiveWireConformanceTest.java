package dev.statekit.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.statefun.sdk.java.slice.Slices;
import org.apache.flink.statefun.sdk.types.generated.IntWrapper;
import org.apache.flink.statefun.sdk.types.generated.StringWrapper;
import org.junit.jupiter.api.Test;

/** The built-in primitives against statefun-sdk-java's serializers: the same bytes both ways. */
class PrimitiveWireConformanceTest {
  private static final org.apache.flink.statefun.sdk.java.types.Type<Integer> SDK_INT =
      org.apache.flink.statefun.sdk.java.types.Types.integerType();

  @Test
  void theDocumentedExamples() {
    assertArrayEquals(new byte[] {0x0D, 5, 0, 0, 0}, Types.integerType().serialize(5));
    assertArrayEquals(new byte[] {0x0A, 2, 'h', 'i'}, Types.stringType().serialize("hi"));
    assertArrayEquals(new byte[0], Types.integerType().serialize(0));
    assertEquals(0, Types.integerType().deserialize(new byte[0]));
    assertEquals("", Types.stringType().deserialize(new byte[0]));
  }

  @Test
  void typeNamesMatch() {
    assertEquals(SDK_INT.typeName().asTypeNameString(), Types.integerType().typeName().asString());
    assertEquals(
        org.apache.flink.statefun.sdk.java.types.Types.stringType().typeName().asTypeNameString(),
        Types.stringType().typeName().asString());
    assertEquals("io.statefun.types/bool", Types.booleanType().typeName().asString());
    assertEquals("io.statefun.types/long", Types.longType().typeName().asString());
    assertEquals("io.statefun.types/float", Types.floatType().typeName().asString());
    assertEquals("io.statefun.types/double", Types.doubleType().typeName().asString());
  }

  @Test
  void ints() {
    sameBytes(
        Types.integerType(),
        SDK_INT,
        List.of(0, 1, -1, 5, 255, 256, 65_536, Integer.MAX_VALUE, Integer.MIN_VALUE));
  }

  @Test
  void longs() {
    sameBytes(
        Types.longType(),
        org.apache.flink.statefun.sdk.java.types.Types.longType(),
        List.of(0L, 1L, -1L, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE));
  }

  @Test
  void booleans() {
    sameBytes(
        Types.booleanType(),
        org.apache.flink.statefun.sdk.java.types.Types.booleanType(),
        List.of(true, false));
  }

  @Test
  void floatsAndDoubles() {
    sameBytes(
        Types.floatType(),
        org.apache.flink.statefun.sdk.java.types.Types.floatType(),
        List.of(
            0f,
            1.5f,
            -3.25f,
            Float.MAX_VALUE,
            Float.MIN_VALUE,
            Float.NaN,
            Float.NEGATIVE_INFINITY));
    sameBytes(
        Types.doubleType(),
        org.apache.flink.statefun.sdk.java.types.Types.doubleType(),
        List.of(0d, 1.5d, -3.25d, Double.MAX_VALUE, Double.MIN_VALUE, Double.NaN));
  }

  @Test
  void negativeZeroSurvivesBothWays() {
    byte[] ours = Types.doubleType().serialize(-0.0d);
    double theirs =
        org.apache.flink.statefun.sdk.java.types.Types.doubleType()
            .typeSerializer()
            .deserialize(Slices.wrap(ours));
    assertEquals(Double.doubleToRawLongBits(-0.0d), Double.doubleToRawLongBits(theirs));
    assertEquals(
        Float.floatToRawIntBits(-0.0f),
        Float.floatToRawIntBits(Types.floatType().deserialize(Types.floatType().serialize(-0.0f))));
  }

  @Test
  void strings() {
    sameBytes(
        Types.stringType(),
        org.apache.flink.statefun.sdk.java.types.Types.stringType(),
        List.of(
            "",
            "a",
            "hi",
            "héllo wörld",
            "日本語",
            "\uD83D\uDE00",
            "x".repeat(127),
            "y".repeat(128),
            "z".repeat(20_000),
            "\uFFFD",
            // Short text that is not ASCII at its last char, or whose chars' low bytes look like
            // ASCII (U+0100 is 0x00, U+0141 is 0x41): none may take the ASCII path.
            "\u007f",
            "abc\u00e9",
            "\u00ff",
            "\u0100",
            "\u0141\u00f3d\u017a",
            "x".repeat(126) + "\u00e9",
            "y".repeat(127) + "\u0141"));
  }

  @Test
  void anUnpairedSurrogateIsWrittenAsTheSdkWritesIt() {
    for (String value : List.of("half-\uD83D", "\uDE00", "x".repeat(100) + "\uD83D")) {
      assertArrayEquals(
          org.apache.flink.statefun.sdk.java.types.Types.stringType()
              .typeSerializer()
              .serialize(value)
              .toByteArray(),
          Types.stringType().serialize(value),
          value);
    }
  }

  @Test
  void nonCanonicalEncodingsAreReadLikeAnyProtobufParserReadsThem() {
    // Field 1 twice (the last wins) and an unknown field 2 before it.
    byte[] bytes = IntWrapper.newBuilder().setValue(7).build().toByteArray();
    byte[] twice = new byte[bytes.length * 2 + 2];
    twice[0] = 0x10; // field 2, varint
    twice[1] = 0x01;
    System.arraycopy(IntWrapper.newBuilder().setValue(3).build().toByteArray(), 0, twice, 2, 5);
    System.arraycopy(bytes, 0, twice, 7, 5);
    assertEquals(7, Types.integerType().deserialize(java.util.Arrays.copyOf(twice, 12)));

    byte[] longString = StringWrapper.newBuilder().setValue("ok").build().toByteArray();
    assertEquals("ok", Types.stringType().deserialize(longString));
  }

  @Test
  void bytesOfAnotherShapeAreRefusedClearly() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Types.stringType().deserialize(new byte[] {0x0A, 5, 'a'}));
    assertTrue(e.getMessage().contains("io.statefun.types/string"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> Types.stringType().deserialize(new byte[] {0x0A, 2, (byte) 0xC3, (byte) 0x28}));
  }

  private static <T> void sameBytes(
      Type<T> ours, org.apache.flink.statefun.sdk.java.types.Type<T> sdk, List<T> values) {
    for (T value : values) {
      byte[] sdkBytes = sdk.typeSerializer().serialize(value).toByteArray();
      byte[] ourBytes = ours.serialize(value);
      assertArrayEquals(sdkBytes, ourBytes, "bytes of " + value);
      assertEquals(value, ours.deserialize(sdkBytes), "StateKit reading the SDK's " + value);
      assertEquals(
          value, sdk.typeSerializer().deserialize(Slices.wrap(ourBytes)), "SDK reading " + value);
    }
  }
}
