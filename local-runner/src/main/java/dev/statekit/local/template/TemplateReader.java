package dev.statekit.local.template;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a CloudFormation / SAM template. Short-form tags become the long form CloudFormation
 * defines, so the rest of the code sees one form: {@code !Ref X} is {@code {"Ref": "X"}}, {@code
 * !GetAtt A.B} is {@code {"Fn::GetAtt": ["A", "B"]}}, any other {@code !Tag v} is {@code
 * {"Fn::Tag": v}}.
 */
final class TemplateReader {
  private static final YAMLFactory YAML = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private TemplateReader() {}

  static JsonNode read(InputStream yaml) throws IOException {
    try (YAMLParser parser = YAML.createParser(yaml)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new IOException("The template is empty");
      }
      return value(parser);
    }
  }

  private static JsonNode value(YAMLParser parser) throws IOException {
    String tag = parser.getTypeId();
    JsonNode node =
        switch (parser.currentToken()) {
          case START_OBJECT -> object(parser);
          case START_ARRAY -> array(parser);
          case VALUE_NULL -> NODES.nullNode();
          case VALUE_TRUE, VALUE_FALSE -> NODES.booleanNode(parser.getBooleanValue());
          case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDecimalValue());
          default -> NODES.textNode(parser.getText());
        };
    return tag == null || tag.isEmpty() || tag.startsWith("tag:yaml.org")
        ? node
        : intrinsic(tag, node);
  }

  private static ObjectNode object(YAMLParser parser) throws IOException {
    ObjectNode object = NODES.objectNode();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      parser.nextToken();
      object.set(name, value(parser));
    }
    return object;
  }

  private static ArrayNode array(YAMLParser parser) throws IOException {
    ArrayNode array = NODES.arrayNode();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      array.add(value(parser));
    }
    return array;
  }

  private static JsonNode intrinsic(String tag, JsonNode value) {
    String name = tag.startsWith("!") ? tag.substring(1) : tag;
    ObjectNode node = NODES.objectNode();
    if (name.equals("Ref")) {
      return node.set("Ref", value);
    }
    if (name.equals("GetAtt") && value.isTextual()) {
      String text = value.asText();
      int dot = text.indexOf('.');
      ArrayNode parts = NODES.arrayNode();
      parts.add(dot < 0 ? text : text.substring(0, dot));
      parts.add(dot < 0 ? "" : text.substring(dot + 1));
      return node.set("Fn::GetAtt", parts);
    }
    return node.set("Fn::" + name, value);
  }
}
