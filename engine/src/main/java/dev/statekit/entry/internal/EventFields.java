package dev.statekit.entry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.entry.MalformedEventException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Reads one field of an event within the bounds its source keeps, so that a forged or broken event
 * is refused with the field's name before anything is routed, and no value costs more than its
 * length to read.
 */
final class EventFields {
  /** The latest time an event may name: the end of the year 9999, in epoch seconds. */
  static final long MAX_EPOCH_SECONDS = 253_402_300_799L;

  private static final Pattern DECIMAL_SECONDS = Pattern.compile("[0-9]{1,12}(\\.[0-9]{1,9})?");

  private EventFields() {}

  /** A string field that must be there, non-empty and at most {@code maxLength} characters. */
  static String required(JsonNode node, String field, String where, int maxLength) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw malformed(where + " has no " + field + "; its event source always sends it");
    }
    return bounded(value.asText(), where + "." + field, maxLength);
  }

  /**
   * A string field that must be there and may be empty (a Kinesis record's data: its producer may
   * put zero bytes), at most {@code maxLength} characters.
   */
  static String present(JsonNode node, String field, String where, int maxLength) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw malformed(where + " has no " + field + "; its event source always sends it");
    }
    return bounded(value.asText(), where + "." + field, maxLength);
  }

  /** An optional string field: {@code otherwise} when absent, else at most {@code maxLength}. */
  static String optional(
      JsonNode node, String field, String where, int maxLength, String otherwise) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return otherwise;
    }
    if (!value.isTextual()) {
      throw malformed(where + "." + field + " is not a string");
    }
    return bounded(value.asText(), where + "." + field, maxLength);
  }

  /**
   * An optional field of text a producer chose (a Kinesis partition key), at most {@code
   * maxCharacters} characters as AWS counts them: Unicode code points (an API's length bound counts
   * scalar values), so that a character outside the Basic Multilingual Plane, two UTF-16 units in a
   * Java string, counts once.
   */
  static String optionalText(
      JsonNode node, String field, String where, int maxCharacters, String otherwise) {
    // Counted in one pass over a string BoundedJson has already bounded.
    String text = optional(node, field, where, Integer.MAX_VALUE, otherwise);
    int characters = text.codePointCount(0, text.length());
    if (characters > maxCharacters) {
      throw malformed(
          where
              + "."
              + field
              + " is "
              + characters
              + " characters long; its source sends at most "
              + maxCharacters);
    }
    return text;
  }

  static String bounded(String text, String what, int maxLength) {
    if (text.length() > maxLength) {
      throw malformed(
          what
              + " is "
              + text.length()
              + " characters long; its source sends at most "
              + maxLength);
    }
    return text;
  }

  /** Decimal digits, 1 to {@code maxDigits} of them, with no leading zero (but "0" itself). */
  static String digits(String text, String what, int maxDigits) {
    int length = text.length();
    boolean ok = length >= 1 && length <= maxDigits && (length == 1 || text.charAt(0) != '0');
    for (int i = 0; ok && i < length; i++) {
      char c = text.charAt(i);
      ok = c >= '0' && c <= '9';
    }
    if (!ok) {
      throw malformed(
          what
              + " '"
              + shorten(text)
              + "' is not a decimal number of 1 to "
              + maxDigits
              + " digits, which is all its source sends");
    }
    return text;
  }

  /** The source's ARN, which must name a source of {@code kind}. */
  static SourceArn sourceArn(JsonNode record, String where, SourceKind kind) {
    String text = required(record, "eventSourceARN", where, SourceArn.MAX_LENGTH);
    SourceArn arn = SourceArn.parseOrNull(kind, text);
    if (arn == null) {
      throw malformed(
          where
              + ".eventSourceARN '"
              + shorten(text)
              + "' is not the ARN of a "
              + kind.label()
              + " (arn:aws:"
              + kind.service()
              + ":region:account:...)");
    }
    return arn;
  }

  /** The records of an event: an array of objects, at most {@link EventLimits#MAX_RECORDS}. */
  static JsonNode records(JsonNode event) {
    JsonNode records = event.path("Records");
    if (!records.isArray()) {
      throw malformed("The event has no Records array");
    }
    if (records.size() > EventLimits.MAX_RECORDS) {
      throw malformed(
          "The event has "
              + records.size()
              + " records; an event source mapping sends at most "
              + EventLimits.MAX_RECORDS);
    }
    for (int i = 0; i < records.size(); i++) {
      if (!records.get(i).isObject()) {
        throw malformed("Records[" + i + "] is not a JSON object");
      }
    }
    return records;
  }

  /** Base64 bytes. */
  static byte[] base64(String text, String what) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw malformed(what + " is not base64: " + e.getMessage());
    }
  }

  /**
   * Epoch seconds with an optional fraction (Kinesis and DynamoDB send them so), read within
   * bounds: a JSON number, or a string of plain decimal digits; absent means unknown (epoch 0).
   */
  static Instant epochSeconds(JsonNode seconds, String what) {
    if (seconds == null || seconds.isMissingNode() || seconds.isNull()) {
      return Instant.EPOCH;
    }
    double value;
    if (seconds.isNumber()) {
      value = seconds.doubleValue();
    } else if (seconds.isTextual() && DECIMAL_SECONDS.matcher(seconds.asText()).matches()) {
      // At most 22 characters: BigDecimal reads it in constant time.
      value = new BigDecimal(seconds.asText()).doubleValue();
    } else {
      throw malformed(
          what
              + " '"
              + shorten(seconds.asText())
              + "' is not epoch seconds such as 1767225600.5; its source always sends a number");
    }
    if (!(value >= 0 && value <= MAX_EPOCH_SECONDS)) {
      throw malformed(
          what
              + " "
              + shorten(seconds.asText())
              + " is not epoch seconds between 0 and "
              + MAX_EPOCH_SECONDS
              + " (the year 9999)");
    }
    return Instant.ofEpochMilli(Math.round(value * 1000));
  }

  static MalformedEventException malformed(String message) {
    return new MalformedEventException(message);
  }

  /** A value quoted in a message: never more than 64 characters of it. */
  static String shorten(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "... (" + text.length() + " chars)";
  }
}
