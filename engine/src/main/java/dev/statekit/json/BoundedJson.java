package dev.statekit.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * Reads JSON that arrived from outside within fixed bounds: nesting depth, the length of strings,
 * numbers and field names. Every bound sits above what AWS sends (a DynamoDB item nests 32 levels
 * inside a few of the event's own) and what a JSON ingress value reasonably holds.
 */
public final class BoundedJson {
  /** The deepest nesting of arrays and objects read. */
  public static final int MAX_DEPTH = 100;

  /** The longest string value read, in characters (a Lambda payload is at most 6 MB). */
  public static final int MAX_STRING_LENGTH = 8 * 1024 * 1024;

  /** The longest number read, in characters. */
  public static final int MAX_NUMBER_LENGTH = 256;

  /** The longest field name read, in characters. */
  public static final int MAX_NAME_LENGTH = 1024;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH)
                  .maxStringLength(MAX_STRING_LENGTH)
                  .maxNumberLength(MAX_NUMBER_LENGTH)
                  .maxNameLength(MAX_NAME_LENGTH)
                  .build())
          .build();

  /** Built on first use: reading and writing trees needs no mapper (see {@link #read}). */
  private static final class Mapper {
    static final ObjectMapper MAPPER = JsonMapper.builder(FACTORY).build();
  }

  private BoundedJson() {}

  /** The mapper, for writing as well (writing has no bounds). */
  public static ObjectMapper mapper() {
    return Mapper.MAPPER;
  }

  /**
   * Writes {@code tree} as UTF-8 JSON, the bytes {@code mapper().writeValueAsBytes(tree)} gives,
   * without building the mapper.
   */
  public static byte[] write(JsonNode tree) {
    try {
      return JsonTrees.write(FACTORY, tree);
    } catch (IOException e) {
      // Writing to memory fails only for a tree Jackson cannot write.
      throw new IllegalStateException("Could not write a JSON tree: " + e.getMessage(), e);
    }
  }

  /**
   * Parses {@code bytes}.
   *
   * @throws IOException if they are not JSON, or pass a bound ({@link #describe} says which)
   */
  public static JsonNode read(byte[] bytes) throws IOException {
    // The tree mapper().readTree(bytes) would build, read without building the mapper.
    return JsonTrees.read(FACTORY, bytes);
  }

  /**
   * What was wrong, in words about the document only: Jackson's own message for a syntax error, the
   * bound passed for a document past one.
   */
  public static String describe(IOException e) {
    if (!(e instanceof com.fasterxml.jackson.core.JacksonException jackson)) {
      // Jackson tells the encoding from the first bytes; text that then does not decode is this.
      return "its text is not valid in the encoding its first bytes announce; send UTF-8 JSON";
    }
    if (!(e instanceof StreamConstraintsException)) {
      return jackson.getOriginalMessage();
    }
    String message = String.valueOf(jackson.getOriginalMessage());
    if (message.startsWith("Document nesting depth")) {
      return "it nests arrays and objects deeper than " + MAX_DEPTH + " levels";
    }
    if (message.startsWith("String value length")) {
      return "a string is longer than " + MAX_STRING_LENGTH + " characters";
    }
    if (message.startsWith("Number value length")) {
      return "a number is longer than " + MAX_NUMBER_LENGTH + " characters";
    }
    if (message.startsWith("Name length")) {
      return "a field name is longer than " + MAX_NAME_LENGTH + " characters";
    }
    return "it passes one of the bounds on JSON documents (depth "
        + MAX_DEPTH
        + ", strings of "
        + MAX_STRING_LENGTH
        + ", numbers of "
        + MAX_NUMBER_LENGTH
        + ", names of "
        + MAX_NAME_LENGTH
        + " characters)";
  }
}
