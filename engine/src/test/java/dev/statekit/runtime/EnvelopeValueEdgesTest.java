package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.Address;
import dev.statekit.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An envelope the runtime renders as text (a dead letter's body, a message to a function address)
 * reads back as the bytes it was rendered from, for every value of a built-in type. NaN and the
 * infinities went under "value" as the strings "NaN" and "Infinity", which the reader refuses for a
 * double; and a float written with Float.toString but read through a double could come back as its
 * neighbour (7.038531E-26f), silently. Such values now go as "base64".
 */
class EnvelopeValueEdgesTest extends RuntimeFixture {

  @ParameterizedTest
  @ValueSource(
      doubles = {
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        -0.0,
        Double.MIN_VALUE,
        Double.MAX_VALUE,
        0.1
      })
  void aDoubleMessageRenderedAsTextReadsBackAsItsBytes(double value) {
    roundTrip("io.statefun.types/double", Types.doubleType().serialize(value));
  }

  @ParameterizedTest
  @ValueSource(
      floats = {
        Float.NaN,
        Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY,
        -0.0f,
        Float.MIN_VALUE,
        Float.MAX_VALUE,
        0.1f,
        // Float.toString gives "7.038531E-26"; read as a double and narrowed it is 7.0385313E-26
        // (double rounding): another float, silently.
        7.038531E-26f
      })
  void aFloatMessageRenderedAsTextReadsBackAsItsBytes(float value) {
    roundTrip("io.statefun.types/float", Types.floatType().serialize(value));
  }

  /**
   * A float a sender writes by its shortest text is that float: the reader narrowed the number's
   * double, which lands on the float beside it for some texts (7.038531E-26 on 7.0385313E-26f).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"7.038531E-26", "0.1", "1.4E-45", "3.4028235E38", "-2.5", "1e-50", "16777217.0"})
  void aFloatValueASenderWritesIsTheFloatItsTextNames(String text) {
    Address target = address(TestFunctions.ACCOUNT, "edge");
    String envelope =
        "{\"target\":\""
            + target
            + "\",\"typename\":\"io.statefun.types/float\",\"value\":"
            + text
            + "}";
    EnvelopeCodec.Envelope read =
        EnvelopeCodec.parse(
            EnvelopeCodec.tree(envelope), new AddressResolver(TestFunctions.registry()));
    assertArrayEquals(
        Types.floatType().serialize(Float.parseFloat(text)),
        read.value(),
        () -> text + " read as " + Types.floatType().deserialize(read.value()));
  }

  /**
   * A number past its built-in type's range is refused, as an int's or a long's is ({@code
   * 2147483648} is "not a io.statefun.types/int"): a double of 1e400 or a float of 1e39 was read as
   * Infinity and applied ({@code {"status": "applied"}}), so the function got a value the sender
   * never wrote, and nothing said so.
   */
  @ParameterizedTest
  @CsvSource({
    "io.statefun.types/int, 2147483648",
    "io.statefun.types/double, 1e400",
    "io.statefun.types/double, -1.8e308",
    "io.statefun.types/float, 1e39",
    "io.statefun.types/float, -3.5e38"
  })
  void aNumberPastItsTypesRangeIsRefusedNotReadAsInfinity(String typeName, String text) {
    Address target = address(TestFunctions.ACCOUNT, "edge");
    String envelope =
        "{\"target\":\"" + target + "\",\"typename\":\"" + typeName + "\",\"value\":" + text + "}";
    AddressResolver targets = new AddressResolver(TestFunctions.registry());
    EnvelopeCodec.Envelope read;
    try {
      read = EnvelopeCodec.parse(EnvelopeCodec.tree(envelope), targets);
    } catch (InvalidEnvelopeException refused) {
      assertTrue(refused.getMessage().contains(typeName), refused.getMessage());
      return;
    }
    Object value =
        typeName.endsWith("float")
            ? Types.floatType().deserialize(read.value())
            : Types.doubleType().deserialize(read.value());
    fail(text + " as " + typeName + " was not refused but read as " + value);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"quoted\\back\"",
        "\u0000\u0001\u001f",
        "\u2028\u2029",
        "\uFFFE\uFFFF",
        "\uD83D\uDE00",
        "</script>"
      })
  void aStringMessageRenderedAsTextReadsBackAsItsBytes(String value) {
    roundTrip("io.statefun.types/string", Types.stringType().serialize(value));
  }

  private void roundTrip(String typeName, byte[] bytes) {
    Address target = address(TestFunctions.ACCOUNT, "edge");
    String text = EnvelopeCodec.renderText(target, typeName, bytes, "k", null);
    EnvelopeCodec.Envelope read =
        assertDoesNotThrow(
            () ->
                EnvelopeCodec.parse(
                    EnvelopeCodec.tree(text), new AddressResolver(TestFunctions.registry())),
            () -> "a rendered envelope is refused: " + text);
    assertArrayEquals(bytes, read.value(), () -> "other bytes read back from " + text);
  }
}
