package dev.statekit.stream.lambda;

import dev.statekit.event.ChangeRecord;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Turns the records the entry point reads from Lambda's events into {@link SourceBatch}es, one per
 * split: the one conversion from an event source to a pipeline, used by {@link
 * BatchPipeline#kinesisConsumer()} and its siblings.
 *
 * <ul>
 *   <li>Kinesis: one ordered batch per shard, split {@code stream/shardId}, offsets the sequence
 *       numbers, timestamps the arrival times, the partition key in header {@link #PARTITION_KEY}.
 *   <li>SQS: one unordered batch per queue, split the queue's name, offsets the message ids,
 *       timestamps the sent times, the message group as {@link SourceBatch#ORDER_GROUP} and the
 *       string message attributes as headers.
 *   <li>DynamoDB Streams: one unordered batch per table (Lambda's events don't name the stream's
 *       shard, and sequence numbers of different shards don't compare), split {@code
 *       dynamodb:table}, offsets the sequence numbers (unique in a stream), timestamps the change
 *       times, every record in one {@link SourceBatch#ORDER_GROUP} (the split's name), the bytes
 *       {@link ChangeJson the change as JSON}. One group, since Lambda hands over a shard's records
 *       again from the first that failed: those after it fail with it, unapplied, so that they
 *       neither move the table's watermark past it (it would come again late) nor go out before it.
 * </ul>
 */
public final class SourceBatches {
  /** The header holding a Kinesis record's partition key. */
  public static final String PARTITION_KEY = "kinesis.partition-key";

  /** The header holding a DynamoDB change's event name: INSERT, MODIFY or REMOVE. */
  public static final String EVENT_NAME = "dynamodb.event-name";

  private SourceBatches() {}

  /** The Kinesis records as one batch per shard, in the order of each shard's first record. */
  public static List<SourceBatch> kinesis(List<KinesisRecord> records) {
    return split(
        records,
        r -> r.streamName() + "/" + r.shardId(),
        SourceBatch::ordered,
        (batch, r) ->
            batch.add(
                r.sequenceNumber(),
                r.arrivedAt().toEpochMilli(),
                r.data(),
                Map.of(PARTITION_KEY, r.partitionKey())));
  }

  /**
   * The SQS messages as one batch per queue. A message of a dead-letter queue that names the queue
   * it was moved from ({@link QueueRecord#deadLetterSource()}) is taken as that queue's, under its
   * id: under the dead-letter queue's own name, where no receipt knows its id, one applied before
   * would be applied a second time. ({@link #deadLetters(List, List)} takes the queues to expect.)
   */
  public static List<SourceBatch> queue(List<QueueRecord> records) {
    return queue(
        records,
        record ->
            record
                .deadLetterSource()
                .filter(SourceBatches::isQueueName)
                .orElse(record.queueName()));
  }

  /**
   * The messages of a dead-letter queue as batches of the queues whose redrive policy moved them
   * there, one per queue: under their message ids, which SQS keeps when it moves a message, so that
   * the receipts and pending entries of the source queue's split know them. A message is taken as a
   * message of the queue it names ({@link QueueRecord#deadLetterSource()}) if that is one of {@code
   * sourceQueues} (one dead-letter queue may serve several queues), else of the first of them: a
   * message moved on from a dead-letter queue's own dead-letter queue names that dead-letter queue,
   * not the queue whose split knows it.
   *
   * @param sourceQueues the names of the queues whose redrive policy moves messages to the
   *     dead-letter queue (the last part of their ARNs), at least one
   * @throws IllegalArgumentException if there is none, or one is not a queue's name
   */
  public static List<SourceBatch> deadLetters(
      List<QueueRecord> records, List<String> sourceQueues) {
    checkQueueNames(sourceQueues);
    String first = sourceQueues.get(0);
    return queue(
        records, record -> record.deadLetterSource().filter(sourceQueues::contains).orElse(first));
  }

  /**
   * The messages of a dead-letter queue as one batch of the queue {@code sourceQueue} whose redrive
   * policy moved them there, under their message ids: {@link #deadLetters(List, List)} of that one
   * queue.
   *
   * @param sourceQueue the source queue's name (the last part of its ARN)
   * @throws IllegalArgumentException if it is not a queue's name
   */
  public static List<SourceBatch> deadLetters(List<QueueRecord> records, String sourceQueue) {
    return deadLetters(records, List.of(Objects.requireNonNull(sourceQueue, "sourceQueue")));
  }

  /**
   * The messages of {@code records} that name a queue they were moved from that is not one of
   * {@code sourceQueues}, each "id (queue)": {@link #deadLetters} takes them as the first source
   * queue's.
   */
  static List<String> namingOtherQueues(List<QueueRecord> records, List<String> sourceQueues) {
    List<String> others = new ArrayList<>();
    for (QueueRecord record : records) {
      record
          .deadLetterSource()
          .filter(source -> !sourceQueues.contains(source))
          .ifPresent(source -> others.add(record.messageId() + " (" + source + ")"));
    }
    return others;
  }

  /**
   * Checks {@code sourceQueues}: at least one, each a queue's name.
   *
   * @throws IllegalArgumentException if not
   */
  static void checkQueueNames(List<String> sourceQueues) {
    Objects.requireNonNull(sourceQueues, "sourceQueues");
    if (sourceQueues.isEmpty()) {
      throw new IllegalArgumentException(
          "Name at least one source queue: the queue whose redrive policy moves messages to the"
              + " dead-letter queue");
    }
    sourceQueues.forEach(SourceBatches::checkQueueName);
  }

  /** What SQS allows a queue's name to be: letters, digits, '-' and '_', a FIFO queue's ".fifo". */
  private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9_-]+(\\.fifo)?");

  private static boolean isQueueName(String name) {
    return name.length() <= 80 && QUEUE_NAME.matcher(name).matches();
  }

  /**
   * Checks that {@code name} is a queue's name: anything else (a stream's or table's split, a
   * queue's URL or ARN) would make a split where no receipt knows the queue's messages.
   *
   * @throws IllegalArgumentException if it is not
   */
  static void checkQueueName(String name) {
    Objects.requireNonNull(name, "sourceQueue");
    if (!isQueueName(name)) {
      throw new IllegalArgumentException(
          "'"
              + name
              + "' is not a queue's name (up to 80 letters, digits, '-' and '_', a FIFO queue's"
              + " ending in .fifo): give the name of the queue whose redrive policy moves messages"
              + " to the dead-letter queue, the last part of its ARN (QueueRecord.queueName(arn))");
    }
  }

  private static List<SourceBatch> queue(
      List<QueueRecord> records, Function<QueueRecord, String> splitOf) {
    return split(
        records,
        splitOf,
        SourceBatch::unordered,
        (batch, r) -> {
          Map<String, String> headers = new HashMap<>(r.messageAttributes());
          // A sender's attribute of that name does not make a standard queue's messages a group.
          headers.remove(SourceBatch.ORDER_GROUP);
          r.groupId().ifPresent(group -> headers.put(SourceBatch.ORDER_GROUP, group));
          batch.add(
              r.messageId(),
              r.sentAt().map(java.time.Instant::toEpochMilli).orElse(0L),
              r.body().getBytes(StandardCharsets.UTF_8),
              headers);
        });
  }

  /** The DynamoDB Streams records as one batch per table. */
  public static List<SourceBatch> dynamoDb(List<ChangeRecord> records) {
    return split(
        records,
        r -> "dynamodb:" + r.tableName(),
        SourceBatch::changes,
        (batch, r) ->
            batch.add(
                r.sequenceNumber(),
                r.createdAt().toEpochMilli(),
                ChangeJson.bytes(r),
                Map.of(
                    SourceBatch.ORDER_GROUP,
                    "dynamodb:" + r.tableName(),
                    EVENT_NAME,
                    r.eventName())));
  }

  private interface Adder<R> {
    void add(SourceBatch.Builder batch, R record);
  }

  private static <R> List<SourceBatch> split(
      List<R> records,
      Function<R, String> splitOf,
      Function<String, SourceBatch.Builder> start,
      Adder<R> adder) {
    Map<String, SourceBatch.Builder> batches = new LinkedHashMap<>();
    for (R record : records) {
      adder.add(batches.computeIfAbsent(splitOf.apply(record), start), record);
    }
    List<SourceBatch> built = new ArrayList<>();
    batches.values().forEach(batch -> built.add(batch.build()));
    return built;
  }
}
