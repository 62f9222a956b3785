package dev.statekit.entry.internal;

import static dev.statekit.entry.internal.EventFields.bounded;
import static dev.statekit.entry.internal.EventFields.digits;
import static dev.statekit.entry.internal.EventFields.malformed;
import static dev.statekit.entry.internal.EventFields.optional;
import static dev.statekit.entry.internal.EventFields.required;
import static dev.statekit.entry.internal.EventFields.sourceArn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.event.ChangeRecord;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import dev.statekit.event.ScheduledEvent;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Lambda's event JSON into the entry point's records, grouped by the source each came from.
 * Field names follow the events as Lambda sends them; a field missing, of the wrong kind or past
 * the bounds its source keeps ({@link EventLimits}) is a {@link
 * dev.statekit.entry.MalformedEventException} naming it.
 */
public final class EventReader {
  private static final Set<String> CHANGES = Set.of("INSERT", "MODIFY", "REMOVE");

  private EventReader() {}

  /** The messages of an SQS event. */
  public static List<SourceGroup<QueueRecord>> sqs(JsonNode event) {
    return read(event, SourceKind.QUEUE, EventReader::queueRecord);
  }

  /** The records of a Kinesis event. */
  public static List<SourceGroup<KinesisRecord>> kinesis(JsonNode event) {
    return read(event, SourceKind.STREAM, EventReader::kinesisRecord);
  }

  /** The records of a DynamoDB Streams event. */
  public static List<SourceGroup<ChangeRecord>> dynamoDb(JsonNode event) {
    return read(event, SourceKind.TABLE, EventReader::changeRecord);
  }

  /** How one record of an event of a kind is read, once its source is known. */
  private interface RecordReading<R> {
    R read(JsonNode record, String where, SourceArn source);
  }

  private static <R> List<SourceGroup<R>> read(
      JsonNode event, SourceKind kind, RecordReading<R> reading) {
    Grouper<R> groups = new Grouper<>();
    JsonNode records = EventFields.records(event);
    for (int i = 0; i < records.size(); i++) {
      JsonNode record = records.get(i);
      String where = "Records[" + i + "]";
      SourceArn source = sourceArn(record, where, kind);
      groups.add(source, reading.read(record, where, source));
    }
    return groups.groups();
  }

  private static QueueRecord queueRecord(JsonNode r, String where, SourceArn source) {
    return new QueueRecord(
        source.name(),
        required(r, "messageId", where, EventLimits.MAX_ID_LENGTH),
        optional(r, "body", where, Integer.MAX_VALUE, ""),
        SqsAttributes.read(r.path("attributes"), where),
        SqsAttributes.messageAttributes(r.path("messageAttributes"), where));
  }

  private static KinesisRecord kinesisRecord(JsonNode r, String where, SourceArn source) {
    JsonNode k = r.path("kinesis");
    String in = where + ".kinesis";
    return new KinesisRecord(
        source.name(),
        shardId(required(r, "eventID", where, 512), where),
        digits(
            required(k, "sequenceNumber", in, EventLimits.MAX_KINESIS_SEQUENCE_DIGITS),
            in + ".sequenceNumber",
            EventLimits.MAX_KINESIS_SEQUENCE_DIGITS),
        EventFields.optionalText(k, "partitionKey", in, EventLimits.MAX_PARTITION_KEY_LENGTH, ""),
        EventFields.base64(EventFields.present(k, "data", in, Integer.MAX_VALUE), in + ".data"),
        EventFields.epochSeconds(
            k.get("approximateArrivalTimestamp"), in + ".approximateArrivalTimestamp"));
  }

  private static ChangeRecord changeRecord(JsonNode r, String where, SourceArn source) {
    JsonNode d = r.path("dynamodb");
    String in = where + ".dynamodb";
    String change = required(r, "eventName", where, 16);
    if (!CHANGES.contains(change)) {
      throw malformed(where + ".eventName '" + change + "' is none of " + CHANGES);
    }
    return new ChangeRecord(
        source.name(),
        optional(r, "eventID", where, EventLimits.MAX_ID_LENGTH, ""),
        change,
        digits(
            required(d, "SequenceNumber", in, EventLimits.MAX_DYNAMODB_SEQUENCE_DIGITS),
            in + ".SequenceNumber",
            EventLimits.MAX_DYNAMODB_SEQUENCE_DIGITS),
        EventFields.epochSeconds(
            d.get("ApproximateCreationDateTime"), in + ".ApproximateCreationDateTime"),
        DynamoDbJson.item(d.get("Keys"), in + ".Keys"),
        DynamoDbJson.item(d.get("NewImage"), in + ".NewImage"),
        DynamoDbJson.item(d.get("OldImage"), in + ".OldImage"));
  }

  /** An EventBridge scheduled event. */
  public static ScheduledEvent scheduled(JsonNode event) {
    String text = optional(event, "time", "The scheduled event", EventLimits.MAX_TIME_LENGTH, "");
    Instant time;
    try {
      time = text.isEmpty() ? Instant.now() : Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw malformed("The scheduled event's time '" + text + "' is not an ISO-8601 instant");
    }
    JsonNode resources = event.path("resources");
    if (!resources.isMissingNode() && !resources.isArray()
        || resources.size() > EventLimits.MAX_RESOURCES) {
      throw malformed(
          "The scheduled event's resources are not an array of at most "
              + EventLimits.MAX_RESOURCES
              + " rule ARNs");
    }
    List<String> rules = new ArrayList<>();
    for (JsonNode resource : resources) {
      if (!resource.isTextual()) {
        throw malformed("The scheduled event's resources hold something other than ARNs");
      }
      rules.add(bounded(resource.asText(), "A scheduled event's resource", SourceArn.MAX_LENGTH));
    }
    return new ScheduledEvent(
        optional(event, "id", "The scheduled event", EventLimits.MAX_ID_LENGTH, ""), time, rules);
  }

  /** The shard of a Kinesis record: {@code eventID} is {@code shardId-...:sequence}. */
  private static String shardId(String eventId, String where) {
    int colon = eventId.indexOf(':');
    String shard = colon < 0 ? eventId : eventId.substring(0, colon);
    if (shard.isEmpty()
        || shard.length() > EventLimits.MAX_SHARD_ID_LENGTH
        || !shard.matches("[A-Za-z0-9_.-]+")) {
      throw malformed(
          where
              + ".eventID '"
              + EventFields.shorten(eventId)
              + "' does not start with a shard id (shardId-000000000000:sequence)");
    }
    return shard;
  }

  /** Records grouped by source ARN, in first-seen order, keeping record order. */
  private static final class Grouper<R> {
    private final Map<String, SourceArn> sources = new LinkedHashMap<>();
    private final Map<String, List<R>> records = new LinkedHashMap<>();

    void add(SourceArn source, R record) {
      sources.putIfAbsent(source.text(), source);
      records.computeIfAbsent(source.text(), s -> new ArrayList<>()).add(record);
    }

    List<SourceGroup<R>> groups() {
      List<SourceGroup<R>> groups = new ArrayList<>();
      records.forEach((arn, list) -> groups.add(new SourceGroup<>(sources.get(arn), list)));
      return groups;
    }
  }
}
