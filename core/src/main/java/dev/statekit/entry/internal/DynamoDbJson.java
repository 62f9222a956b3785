package dev.statekit.entry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** DynamoDB's typed JSON ({@code {"S": "x"}, {"N": "1"}, ...}), as stream events carry items. */
final class DynamoDbJson {
  private DynamoDbJson() {}

  static Map<String, AttributeValue> item(JsonNode node, String where) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    if (node == null || node.isNull() || node.isMissingNode()) {
      return item;
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(where + " is not a JSON object of typed attributes");
    }
    node.fields()
        .forEachRemaining(f -> item.put(f.getKey(), value(f.getValue(), where + "." + f.getKey())));
    return item;
  }

  static AttributeValue value(JsonNode typed, String where) {
    if (typed == null || !typed.isObject() || typed.size() != 1) {
      throw new IllegalArgumentException(
          where + " is not a typed attribute such as {\"S\": \"text\"} or {\"N\": \"1\"}");
    }
    Map.Entry<String, JsonNode> only = typed.fields().next();
    JsonNode v = only.getValue();
    return switch (only.getKey()) {
      case "S" -> AttributeValue.fromS(v.asText());
      case "N" -> AttributeValue.fromN(v.asText());
      case "B" ->
          AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(v.asText())));
      case "BOOL" -> AttributeValue.fromBool(v.asBoolean());
      case "NULL" -> AttributeValue.fromNul(true);
      case "SS" -> AttributeValue.fromSs(texts(v));
      case "NS" -> AttributeValue.fromNs(texts(v));
      case "BS" ->
          AttributeValue.fromBs(
              texts(v).stream()
                  .map(b -> SdkBytes.fromByteArray(Base64.getDecoder().decode(b)))
                  .toList());
      case "M" -> AttributeValue.fromM(item(v, where));
      case "L" -> {
        List<AttributeValue> list = new ArrayList<>();
        for (JsonNode element : v) {
          list.add(value(element, where + "[]"));
        }
        yield AttributeValue.fromL(list);
      }
      default ->
          throw new IllegalArgumentException(
              where + " has an unknown attribute type '" + only.getKey() + "'");
    };
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(t -> texts.add(t.asText()));
    return texts;
  }
}
