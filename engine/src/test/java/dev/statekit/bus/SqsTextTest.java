package dev.statekit.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.statekit.json.PlainJson;
import org.junit.jupiter.api.Test;

/** Escaping what SQS refuses keeps JSON the same value and leaves everything else alone. */
class SqsTextTest {
  private static final String REFUSED = "\u0000\u0001\u001B\u001F\uFFFE\uFFFF\uD800x\uDC00";

  @Test
  void everyCharacterSqsRefusesIsFoundAndNothingElse() {
    assertEquals(
        -1, SqsText.firstRefused("\t\n\r \u007F\uD7FF\uE000\uFFFD\uD83D\uDE00\uDBFF\uDFFF"));
    for (char c : REFUSED.replace("x", "").toCharArray()) {
      assertEquals(2, SqsText.firstRefused("ok" + c + "ok"), "U+" + Integer.toHexString(c));
    }
    assertEquals(1, SqsText.firstRefused("a\uD83D"), "a high surrogate at the end is unpaired");
    assertEquals(1, SqsText.firstRefused("a\uDE00\uD83D"), "a pair in the wrong order is refused");
  }

  @Test
  void textWithNothingToEscapeIsReturnedItself() {
    String text = "{\"a\": \"\u00e9\uD83D\uDE00\"}";
    assertSame(text, SqsText.escape(text));
  }

  @Test
  void jsonWithRefusedCharactersIsTheSameValueAfterEscapingAndSqsTakesIt() throws Exception {
    String value = "q\"\\" + REFUSED + "\uD83D\uDE00\\" + "\uFFFE";
    // Field names: Jackson refuses an escaped unpaired surrogate in a name (the runtime writes
    // only its own names), so the values carry every case.
    var tree = JsonNodeFactory.instance.objectNode().put("v", value).put("w", "\uDC00" + REFUSED);

    String escaped = SqsText.escape(PlainJson.text(tree));

    assertEquals(-1, SqsText.firstRefused(escaped), escaped);
    assertEquals(tree, PlainJson.readOne(escaped), "the same JSON value, every character exact");
  }

  @Test
  void plainTextGetsReadableStandIns() {
    assertEquals("a\\u001b[31mb\\ufffe\\ud800", SqsText.escape("a\u001B[31mb\uFFFE\uD800"));
  }
}
