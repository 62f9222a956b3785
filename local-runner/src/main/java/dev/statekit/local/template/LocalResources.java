package dev.statekit.local.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates the template's tables, queues and streams through the given clients (the emulators,
 * LocalStack or AWS), named {@code <prefix>-<LogicalId>} ({@code .fifo} added for FIFO queues).
 * Resources that already exist are kept: running it twice is harmless.
 */
public final class LocalResources {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, LocalResource> byLogicalId = new LinkedHashMap<>();

  private LocalResources() {}

  /** The resources created or found, by logical id. */
  public Map<String, LocalResource> all() {
    return byLogicalId;
  }

  /** One resource, or {@code null}. */
  public LocalResource get(String logicalId) {
    return byLogicalId.get(logicalId);
  }

  /**
   * The stack name the template's {@code ${AWS::StackName}} stands for locally: the one the README
   * deploys with and the event fixtures name, so that a fixture's schedule rule is the template's.
   */
  public static final String STACK = "statekit";

  /** Resolves a template value that names no resource, only pseudo parameters. */
  public static String resolvePseudo(JsonNode value, String region) {
    return new LocalResources().resolve(value, region);
  }

  /** Resolves a template value (Ref, GetAtt, Sub, Join, text) against these resources. */
  public String resolve(JsonNode value, String region) {
    return Intrinsics.resolve(
        value,
        byLogicalId::get,
        Map.of("AWS::Region", region, "AWS::AccountId", "000000000000", "AWS::StackName", STACK));
  }

  /**
   * Creates (or finds) every table, queue and stream of {@code template}.
   *
   * @param pointInTimeRecovery whether to switch on the tables' point-in-time recovery where the
   *     template asks for it (real AWS only: the emulators don't keep backups)
   * @param log where each resource is reported
   */
  public static LocalResources create(
      Template template,
      String prefix,
      DynamoDbClient dynamoDb,
      SqsClient sqs,
      KinesisClient kinesis,
      boolean pointInTimeRecovery,
      PrintWriter log) {
    LocalResources created = new LocalResources();
    for (Resource table : template.resources("AWS::DynamoDB::Table")) {
      created.put(
          created.table(table, prefix + "-" + table.logicalId(), dynamoDb, pointInTimeRecovery),
          log);
    }
    for (Resource queue : queuesInCreationOrder(template)) {
      created.put(created.queue(queue, prefix, sqs), log);
    }
    for (Resource stream : template.resources("AWS::Kinesis::Stream")) {
      created.put(stream(stream, prefix + "-" + stream.logicalId(), kinesis), log);
    }
    return created;
  }

  /**
   * Finds every table, queue and stream of {@code template} created before under {@code prefix}, or
   * by the physical name {@code names} gives its logical id (a table's or stream's name, a queue's
   * URL or name, as a stack deployed by SAM names them), creating and changing nothing (a read-only
   * console).
   *
   * @throws IllegalStateException if one is missing, saying how to create them
   */
  public static LocalResources find(
      Template template,
      String prefix,
      Map<String, String> names,
      DynamoDbClient dynamoDb,
      SqsClient sqs,
      KinesisClient kinesis,
      PrintWriter log) {
    LocalResources found = new LocalResources();
    String missing =
        names.isEmpty()
            ? "; create them first with tables --prefix " + prefix + " (or serve)"
            : "; check the names given (a stack's: aws cloudformation describe-stack-resources)";
    for (Resource table : template.resources("AWS::DynamoDB::Table")) {
      String name = names.getOrDefault(table.logicalId(), prefix + "-" + table.logicalId());
      TableDescription description;
      try {
        description = dynamoDb.describeTable(b -> b.tableName(name)).table();
      } catch (software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException e) {
        throw new IllegalStateException("There is no table " + name + missing, e);
      }
      Map<String, String> attrs = new HashMap<>();
      attrs.put("Arn", description.tableArn());
      if (description.latestStreamArn() != null) {
        attrs.put("StreamArn", description.latestStreamArn());
      }
      found.put(new LocalResource(table.logicalId(), table.type(), name, attrs), log);
    }
    for (Resource queue : queuesInCreationOrder(template)) {
      String given = names.get(queue.logicalId());
      String name =
          given != null && given.startsWith("http")
              ? given.substring(given.lastIndexOf('/') + 1)
              : given != null
                  ? given
                  : prefix
                      + "-"
                      + queue.logicalId()
                      + (queue.flag("FifoQueue", false) ? ".fifo" : "");
      String url;
      try {
        url = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
      } catch (software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException e) {
        throw new IllegalStateException("There is no queue " + name + missing, e);
      }
      String arn =
          sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
              .attributes()
              .get(QueueAttributeName.QUEUE_ARN);
      found.put(
          new LocalResource(
              queue.logicalId(),
              queue.type(),
              url,
              Map.of("Arn", arn, "QueueName", name, "QueueUrl", url)),
          log);
    }
    for (Resource stream : template.resources("AWS::Kinesis::Stream")) {
      String name = names.getOrDefault(stream.logicalId(), prefix + "-" + stream.logicalId());
      String arn;
      try {
        arn =
            kinesis
                .describeStreamSummary(b -> b.streamName(name))
                .streamDescriptionSummary()
                .streamARN();
      } catch (software.amazon.awssdk.services.kinesis.model.ResourceNotFoundException e) {
        throw new IllegalStateException("There is no stream " + name + missing, e);
      }
      found.put(
          new LocalResource(
              stream.logicalId(), stream.type(), name, Map.of("Arn", arn, "Name", name)),
          log);
    }
    return found;
  }

  private void put(LocalResource resource, PrintWriter log) {
    byLogicalId.put(resource.logicalId(), resource);
    log.println(
        "  " + resource.type().substring(5) + " " + resource.logicalId() + ": " + resource.ref());
    log.flush();
  }

  private LocalResource table(Resource table, String name, DynamoDbClient dynamoDb, boolean pitr) {
    JsonNode p = table.properties();
    List<AttributeDefinition> attributes = new ArrayList<>();
    p.path("AttributeDefinitions")
        .forEach(
            a ->
                attributes.add(
                    AttributeDefinition.builder()
                        .attributeName(a.path("AttributeName").asText())
                        .attributeType(a.path("AttributeType").asText())
                        .build()));
    List<KeySchemaElement> keys = new ArrayList<>();
    p.path("KeySchema")
        .forEach(
            k ->
                keys.add(
                    KeySchemaElement.builder()
                        .attributeName(k.path("AttributeName").asText())
                        .keyType(k.path("KeyType").asText())
                        .build()));
    boolean created;
    try {
      dynamoDb.createTable(
          b ->
              b.tableName(name)
                  .billingMode(BillingMode.PAY_PER_REQUEST)
                  .attributeDefinitions(attributes)
                  .keySchema(keys));
      created = true;
    } catch (ResourceInUseException exists) {
      created = false;
    }
    dynamoDb.waiter().waitUntilTableExists(b -> b.tableName(name));
    JsonNode ttl = p.path("TimeToLiveSpecification");
    if (created && ttl.path("Enabled").asBoolean(false)) {
      dynamoDb.updateTimeToLive(
          b ->
              b.tableName(name)
                  .timeToLiveSpecification(
                      s -> s.attributeName(ttl.path("AttributeName").asText()).enabled(true)));
    }
    if (created
        && pitr
        && p.path("PointInTimeRecoverySpecification")
            .path("PointInTimeRecoveryEnabled")
            .asBoolean(false)) {
      dynamoDb.updateContinuousBackups(
          b ->
              b.tableName(name)
                  .pointInTimeRecoverySpecification(s -> s.pointInTimeRecoveryEnabled(true)));
    }
    TableDescription description = dynamoDb.describeTable(b -> b.tableName(name)).table();
    Map<String, String> attrs = new HashMap<>();
    attrs.put("Arn", description.tableArn());
    if (description.latestStreamArn() != null) {
      attrs.put("StreamArn", description.latestStreamArn());
    }
    return new LocalResource(table.logicalId(), table.type(), name, attrs);
  }

  private LocalResource queue(Resource queue, String prefix, SqsClient sqs) {
    boolean fifo = queue.flag("FifoQueue", false);
    String name = prefix + "-" + queue.logicalId() + (fifo ? ".fifo" : "");
    Map<QueueAttributeName, String> attributes = new HashMap<>();
    if (fifo) {
      attributes.put(QueueAttributeName.FIFO_QUEUE, "true");
      attributes.put(
          QueueAttributeName.CONTENT_BASED_DEDUPLICATION,
          Boolean.toString(queue.flag("ContentBasedDeduplication", false)));
    }
    copy(queue, "VisibilityTimeout", QueueAttributeName.VISIBILITY_TIMEOUT, attributes);
    copy(queue, "MessageRetentionPeriod", QueueAttributeName.MESSAGE_RETENTION_PERIOD, attributes);
    copy(queue, "DelaySeconds", QueueAttributeName.DELAY_SECONDS, attributes);
    copy(
        queue,
        "ReceiveMessageWaitTimeSeconds",
        QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS,
        attributes);
    JsonNode redrive = queue.properties().get("RedrivePolicy");
    if (redrive != null && redrive.isObject()) {
      String target = Intrinsics.referencedLogicalId(redrive.get("deadLetterTargetArn"));
      Map<String, Object> policy = new LinkedHashMap<>();
      policy.put("deadLetterTargetArn", resolve(redrive.get("deadLetterTargetArn"), "us-east-1"));
      policy.put("maxReceiveCount", redrive.path("maxReceiveCount").asInt(10));
      attributes.put(QueueAttributeName.REDRIVE_POLICY, write(policy, target));
    }
    String url = sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
    String arn =
        sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    return new LocalResource(
        queue.logicalId(),
        queue.type(),
        url,
        Map.of("Arn", arn, "QueueName", name, "QueueUrl", url));
  }

  private static LocalResource stream(Resource stream, String name, KinesisClient kinesis) {
    try {
      kinesis.createStream(
          b -> b.streamName(name).shardCount((int) stream.number("ShardCount", 1)));
    } catch (software.amazon.awssdk.services.kinesis.model.ResourceInUseException exists) {
      // kept as it is
    }
    long deadline = System.currentTimeMillis() + 60_000;
    var summary = kinesis.describeStreamSummary(b -> b.streamName(name)).streamDescriptionSummary();
    while (summary.streamStatus() != StreamStatus.ACTIVE && System.currentTimeMillis() < deadline) {
      sleep(100);
      summary = kinesis.describeStreamSummary(b -> b.streamName(name)).streamDescriptionSummary();
    }
    if (summary.streamStatus() != StreamStatus.ACTIVE) {
      throw new IllegalStateException(
          "The Kinesis stream " + name + " is still " + summary.streamStatus() + " after a minute");
    }
    return new LocalResource(
        stream.logicalId(), stream.type(), name, Map.of("Arn", summary.streamARN(), "Name", name));
  }

  /** Queues a redrive policy names come first. */
  private static List<Resource> queuesInCreationOrder(Template template) {
    List<Resource> queues = template.resources("AWS::SQS::Queue");
    List<Resource> ordered = new ArrayList<>();
    for (Resource queue : queues) {
      String target =
          Intrinsics.referencedLogicalId(
              queue.properties().path("RedrivePolicy").get("deadLetterTargetArn"));
      queues.stream()
          .filter(q -> q.logicalId().equals(target) && !ordered.contains(q))
          .forEach(ordered::add);
      if (!ordered.contains(queue)) {
        ordered.add(queue);
      }
    }
    return ordered;
  }

  private static void copy(
      Resource queue,
      String property,
      QueueAttributeName name,
      Map<QueueAttributeName, String> attributes) {
    long value = queue.number(property, -1);
    if (value >= 0) {
      attributes.put(name, Long.toString(value));
    }
  }

  private static String write(Object value, String about) {
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("Could not write the redrive policy of " + about, e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for a stream", e);
    }
  }
}
