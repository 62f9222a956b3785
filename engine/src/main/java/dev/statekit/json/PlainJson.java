package dev.statekit.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * Jackson trees read and written under Jackson's default constraints, the trees and bytes a default
 * {@code ObjectMapper} reads and writes, without building one (or Jackson's internal mapper that
 * {@code JsonNode.toString()} builds): a cold start that handles an envelope then pays for the
 * streaming parser and generator only. For documents from outside that must stay within tighter
 * bounds, {@link BoundedJson}.
 */
public final class PlainJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private PlainJson() {}

  /**
   * The one JSON value in {@code text}, as {@code
   * mapper.reader().with(FAIL_ON_TRAILING_TOKENS).readTree(text)} reads it: a missing node for no
   * content. Except that a number beyond a double's range (say {@code 1e400}) is kept as its exact
   * decimal, where the mapper's Infinity would be written back as the string {@code "Infinity"}.
   *
   * @throws IOException if {@code text} is not JSON, or holds anything after its first value
   */
  public static JsonNode readOne(String text) throws IOException {
    return JsonTrees.readOne(FACTORY, text);
  }

  /** {@code tree} as UTF-8 JSON, the bytes {@code new ObjectMapper().writeValueAsBytes} gives. */
  public static byte[] write(JsonNode tree) {
    try {
      return JsonTrees.write(FACTORY, tree);
    } catch (IOException e) {
      // Writing to memory fails only for a tree Jackson cannot write.
      throw new IllegalStateException("Could not write a JSON tree: " + e.getMessage(), e);
    }
  }

  /** {@code tree} as JSON text, the text {@code tree.toString()} gives. */
  public static String text(JsonNode tree) {
    try {
      return JsonTrees.text(FACTORY, tree);
    } catch (IOException e) {
      throw new IllegalStateException("Could not write a JSON tree: " + e.getMessage(), e);
    }
  }
}
