package dev.statekit.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * Jackson trees read and written with Jackson's streaming parser and generator alone, the trees its
 * {@code ObjectMapper} would build and write: building an {@code ObjectMapper} costs a cold start
 * about 170 ms of class loading, which a payload that is only routed (a Function URL event, a queue
 * or stream batch) need not pay.
 */
final class JsonTrees {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonTrees() {}

  /**
   * The first value in {@code bytes} as {@code ObjectMapper.readTree(byte[])} reads it with its
   * defaults: a missing node for no content, what follows the first value ignored, a repeated field
   * name's last value kept, numbers as the parser types them.
   */
  static JsonNode read(JsonFactory factory, byte[] bytes) throws IOException {
    try (JsonParser parser = factory.createParser(bytes)) {
      return first(parser, false);
    }
  }

  /**
   * The one value in {@code text}, as an {@code ObjectReader} with {@code FAIL_ON_TRAILING_TOKENS}
   * reads it: a missing node for no content, and a {@link JsonParseException} for any token after
   * the value. One difference: a number beyond a double's range is kept exact (see {@link
   * #floating}).
   */
  static JsonNode readOne(JsonFactory factory, String text) throws IOException {
    try (JsonParser parser = factory.createParser(text)) {
      JsonNode value = first(parser, true);
      if (!value.isMissingNode()) {
        JsonToken trailing = parser.nextToken();
        if (trailing != null) {
          throw new JsonParseException(
              parser,
              "Trailing token (of type "
                  + trailing
                  + ") found after value: only one JSON document is allowed");
        }
      }
      return value;
    }
  }

  private static JsonNode first(JsonParser parser, boolean exactBeyondDouble) throws IOException {
    JsonToken token = parser.nextToken();
    if (token == null) {
      return NODES.missingNode();
    }
    return value(parser, token, exactBeyondDouble);
  }

  // Iterative, so nesting is bounded by the parser's depth constraint and not by the stack.
  private static JsonNode value(JsonParser parser, JsonToken first, boolean exactBeyondDouble)
      throws IOException {
    if (first != JsonToken.START_OBJECT && first != JsonToken.START_ARRAY) {
      return scalar(parser, first, exactBeyondDouble);
    }
    Deque<JsonNode> open = new ArrayDeque<>();
    JsonNode root = first == JsonToken.START_OBJECT ? NODES.objectNode() : NODES.arrayNode();
    open.push(root);
    while (!open.isEmpty()) {
      JsonNode container = open.peek();
      JsonToken token = parser.nextToken();
      if (token == null) {
        // Jackson's parser reports an unclosed document itself; this is a guard.
        throw new JsonParseException(parser, "Unexpected end of input");
      }
      if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
        open.pop();
        continue;
      }
      String name = null;
      if (container.isObject()) {
        name = parser.currentName();
        token = parser.nextToken();
      }
      JsonNode child;
      if (token == JsonToken.START_OBJECT) {
        child = NODES.objectNode();
      } else if (token == JsonToken.START_ARRAY) {
        child = NODES.arrayNode();
      } else {
        child = scalar(parser, token, exactBeyondDouble);
      }
      if (container instanceof ObjectNode object) {
        object.set(name, child);
      } else {
        ((ArrayNode) container).add(child);
      }
      if (child.isContainerNode()) {
        open.push(child);
      }
    }
    return root;
  }

  private static JsonNode scalar(JsonParser parser, JsonToken token, boolean exactBeyondDouble)
      throws IOException {
    return switch (token) {
      case VALUE_STRING -> NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT ->
          switch (parser.getNumberType()) {
            case INT -> NODES.numberNode(parser.getIntValue());
            case LONG -> NODES.numberNode(parser.getLongValue());
            default -> NODES.numberNode(parser.getBigIntegerValue());
          };
      case VALUE_NUMBER_FLOAT -> floating(parser, exactBeyondDouble);
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_NULL -> NODES.nullNode();
      default -> throw new JsonParseException(parser, "Unexpected token " + token);
    };
  }

  /**
   * A double, as the mapper reads it, unless the number is beyond a double's range: the mapper's
   * Infinity is written back as the string {@code "Infinity"}, a number turned into text that the
   * receiver of a JSON value (or a redriven dead letter) never sent. For envelopes ({@code
   * exactBeyondDouble}) such a number is kept exact, and a double keeps its text for the float it
   * names (a {@code io.statefun.types/float} value); AWS events are read as the mapper reads them.
   */
  private static JsonNode floating(JsonParser parser, boolean exactBeyondDouble)
      throws IOException {
    if (parser.getNumberType() == JsonParser.NumberType.BIG_DECIMAL) {
      return NODES.numberNode(parser.getDecimalValue());
    }
    double value = parser.getDoubleValue();
    if (!exactBeyondDouble) {
      return NODES.numberNode(value);
    }
    if (!Double.isInfinite(value)) {
      return new TextDoubleNode(value, parser.getText());
    }
    try {
      return NODES.numberNode(parser.getDecimalValue());
    } catch (NumberFormatException e) {
      // An exponent past an int's range: no decimal holds it either.
      String number = parser.getText();
      throw new JsonParseException(
          parser,
          "The number "
              + (number.length() > 40 ? number.substring(0, 40) + "..." : number)
              + " is beyond any decimal's range (its exponent is too large)",
          e);
    }
  }

  /** {@code tree} as UTF-8 JSON, as {@code ObjectMapper.writeValueAsBytes} writes it. */
  static byte[] write(JsonFactory factory, JsonNode tree) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator generator = factory.createGenerator(out)) {
      write(generator, tree);
    }
    return out.toByteArray();
  }

  /**
   * {@code tree} as JSON text, as {@code tree.toString()} writes it (characters outside the Basic
   * Multilingual Plane as themselves, where the UTF-8 writer escapes their surrogates).
   */
  static String text(JsonFactory factory, JsonNode tree) throws IOException {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator generator = factory.createGenerator(out)) {
      write(generator, tree);
    }
    return out.toString();
  }

  private static void write(JsonGenerator out, JsonNode node) throws IOException {
    switch (node.getNodeType()) {
      case OBJECT -> {
        out.writeStartObject();
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
          Map.Entry<String, JsonNode> field = fields.next();
          out.writeFieldName(field.getKey());
          write(out, field.getValue());
        }
        out.writeEndObject();
      }
      case ARRAY -> {
        out.writeStartArray();
        for (JsonNode element : node) {
          write(out, element);
        }
        out.writeEndArray();
      }
      case STRING -> out.writeString(node.textValue());
      case NUMBER -> {
        switch (node.numberType()) {
          case INT -> out.writeNumber(node.intValue());
          case LONG -> out.writeNumber(node.longValue());
          case BIG_INTEGER -> out.writeNumber(node.bigIntegerValue());
          case FLOAT -> out.writeNumber(node.floatValue());
          case DOUBLE -> {
            if (node instanceof TextDoubleNode read && read.losesItsFloat()) {
              out.writeNumber(read.text());
            } else {
              out.writeNumber(node.doubleValue());
            }
          }
          default -> out.writeNumber(node.decimalValue());
        }
      }
      case BOOLEAN -> out.writeBoolean(node.booleanValue());
      case NULL -> out.writeNull();
      case BINARY -> out.writeBinary(node.binaryValue());
      default ->
          // A POJO or missing node: what only an ObjectMapper knows how to write.
          BoundedJson.mapper().writeTree(out, node);
    }
  }
}
