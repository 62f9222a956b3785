package dev.statekit.entry.internal;

import static dev.statekit.entry.internal.EventFields.malformed;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's typed JSON ({@code {"S": "x"}, {"N": "1"}, ...}), as stream events carry items, held
 * to what DynamoDB stores: at most 32 levels deep, numbers of DynamoDB's precision and magnitude,
 * in at most {@link EventLimits#MAX_NUMBER_LENGTH} characters (so a consumer reading one as a
 * {@code BigDecimal} never meets a million-digit exponent).
 */
final class DynamoDbJson {
  /**
   * A decimal, with an exponent or in plain digits (DynamoDB returns and streams numbers in plain
   * digits: 1E+100 as "1" and 100 zeros); its size is checked after.
   */
  private static final Pattern NUMBER =
      Pattern.compile("-?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]{1,4})?");

  private DynamoDbJson() {}

  static Map<String, AttributeValue> item(JsonNode node, String where) {
    return item(node, where, 0);
  }

  private static Map<String, AttributeValue> item(JsonNode node, String where, int depth) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    if (node == null || node.isNull() || node.isMissingNode()) {
      return item;
    }
    if (!node.isObject()) {
      throw malformed(where + " is not a JSON object of typed attributes");
    }
    node.fields()
        .forEachRemaining(
            f -> item.put(f.getKey(), value(f.getValue(), where + "." + f.getKey(), depth)));
    return item;
  }

  private static AttributeValue value(JsonNode typed, String where, int depth) {
    if (depth >= EventLimits.MAX_ITEM_DEPTH) {
      throw malformed(
          where + " nests deeper than DynamoDB allows (" + EventLimits.MAX_ITEM_DEPTH + " levels)");
    }
    if (typed == null || !typed.isObject() || typed.size() != 1) {
      throw malformed(
          where + " is not a typed attribute such as {\"S\": \"text\"} or {\"N\": \"1\"}");
    }
    Map.Entry<String, JsonNode> only = typed.fields().next();
    JsonNode v = only.getValue();
    String type = only.getKey();
    return switch (type) {
      case "S" -> AttributeValue.fromS(text(v, where));
      case "N" -> AttributeValue.fromN(number(text(v, where), where));
      case "B" -> AttributeValue.fromB(bytes(text(v, where), where));
      case "BOOL" -> AttributeValue.fromBool(v.asBoolean());
      case "NULL" -> AttributeValue.fromNul(true);
      case "SS" -> AttributeValue.fromSs(texts(v, where));
      case "NS" ->
          AttributeValue.fromNs(texts(v, where).stream().map(n -> number(n, where)).toList());
      case "BS" ->
          AttributeValue.fromBs(texts(v, where).stream().map(b -> bytes(b, where)).toList());
      case "M" -> AttributeValue.fromM(item(v, where, depth + 1));
      case "L" -> {
        if (!v.isArray()) {
          throw malformed(where + " is an L that is not a JSON array");
        }
        List<AttributeValue> list = new ArrayList<>();
        for (JsonNode element : v) {
          list.add(value(element, where + "[]", depth + 1));
        }
        yield AttributeValue.fromL(list);
      }
      default ->
          throw malformed(
              where + " has an unknown attribute type '" + EventFields.shorten(type) + "'");
    };
  }

  private static String text(JsonNode value, String where) {
    if (!value.isTextual()) {
      throw malformed(where + " holds a " + value.getNodeType() + " where DynamoDB sends a string");
    }
    return value.asText();
  }

  /**
   * {@code text} if DynamoDB can store it: at most 38 significant digits (zeros before the first
   * and after the last not counted) and, unless zero, a magnitude from 1E-130 to under 1E+126,
   * however it is written.
   */
  private static String number(String text, String where) {
    if (text.length() > EventLimits.MAX_NUMBER_LENGTH
        || !NUMBER.matcher(text).matches()
        || !storable(new BigDecimal(text))) {
      throw malformed(
          where + " '" + EventFields.shorten(text) + "' is not a number DynamoDB can store");
    }
    return text;
  }

  private static boolean storable(BigDecimal number) {
    if (number.signum() == 0) {
      return true;
    }
    BigDecimal digits = number.stripTrailingZeros();
    long exponent = (long) digits.precision() - digits.scale() - 1;
    return digits.precision() <= 38 && exponent >= -130 && exponent <= 125;
  }

  private static SdkBytes bytes(String base64, String where) {
    return SdkBytes.fromByteArray(EventFields.base64(base64, where));
  }

  private static List<String> texts(JsonNode array, String where) {
    if (!array.isArray()) {
      throw malformed(where + " is a set that is not a JSON array");
    }
    List<String> texts = new ArrayList<>();
    array.forEach(t -> texts.add(text(t, where)));
    return texts;
  }
}
