package dev.statekit.json;

import com.fasterxml.jackson.databind.node.DoubleNode;

/**
 * A JSON number read as a double that keeps its text for {@link #floatValue()}: narrowing the
 * double rounds twice, and some decimals land on the float beside the one they name (the text
 * {@code 7.038531E-26} of a float read back as {@code 7.0385313E-26f}). Equal to a {@link
 * DoubleNode} of the same value, and written as one, except where that would name another float:
 * then as its text, which names the same double, so a tree written and read again (a call's
 * envelope) keeps both.
 */
final class TextDoubleNode extends DoubleNode {
  private static final long serialVersionUID = 1L;

  private final String text;

  TextDoubleNode(double value, String text) {
    super(value);
    this.text = text;
  }

  @Override
  public float floatValue() {
    return Float.parseFloat(text);
  }

  String text() {
    return text;
  }

  /**
   * Whether the double as a generator writes it ({@link Double#toString}) names another float than
   * the text does.
   */
  boolean losesItsFloat() {
    return Float.floatToRawIntBits(Float.parseFloat(Double.toString(doubleValue())))
        != Float.floatToRawIntBits(floatValue());
  }
}
