package dev.statekit.handlers;

import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.FunctionRuntime;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The self-hosted runtime's wiring on Lambda, read from environment variables that {@code
 * template.yaml} sets: {@code STATEKIT_TABLE} (the application table), {@code STATEKIT_QUEUE_URL}
 * (the ingress FIFO queue), {@code STATEKIT_DEAD_LETTER_QUEUE_URL} and, optionally, {@code
 * STATEKIT_WAKE_UP_QUEUE_URL} (the standard queue that delivers delayed messages on time); clients
 * from {@link Variables#aws()}. Build it once, in a handler's constructor.
 */
public final class RuntimeEnvironment {
  /** The application table's name. */
  public static final String TABLE = "STATEKIT_TABLE";

  /** The ingress FIFO queue's URL. */
  public static final String QUEUE_URL = "STATEKIT_QUEUE_URL";

  /** The dead-letter FIFO queue's URL. */
  public static final String DEAD_LETTER_QUEUE_URL = "STATEKIT_DEAD_LETTER_QUEUE_URL";

  /**
   * The wake-up standard queue's URL (optional: without it delayed messages go out with the sweep,
   * within a minute of their time).
   */
  public static final String WAKE_UP_QUEUE_URL = "STATEKIT_WAKE_UP_QUEUE_URL";

  private final Variables variables;
  private final DynamoDbClient dynamoDb;
  private final SqsClient sqs;

  private RuntimeEnvironment(Variables variables, DynamoDbClient dynamoDb, SqsClient sqs) {
    this.variables = variables;
    this.dynamoDb = dynamoDb;
    this.sqs = sqs;
  }

  /** Reads this process's environment and builds the clients. */
  public static RuntimeEnvironment fromEnvironment() {
    return of(Variables.fromEnvironment());
  }

  /** Reads {@code variables} and builds the clients they configure. */
  public static RuntimeEnvironment of(Variables variables) {
    AwsConfig aws = variables.aws();
    return new RuntimeEnvironment(variables, aws.dynamoDbClient(), aws.sqsClient());
  }

  /** The given variables and clients (tests). */
  public static RuntimeEnvironment of(
      Map<String, String> variables, DynamoDbClient dynamoDb, SqsClient sqs) {
    return new RuntimeEnvironment(
        Variables.of(variables),
        Objects.requireNonNull(dynamoDb, "dynamoDb"),
        Objects.requireNonNull(sqs, "sqs"));
  }

  /**
   * A runtime builder for {@code functions} with the store, the queue and the dead-letter queue
   * set; add egress routes and build.
   *
   * @throws IllegalStateException if a variable is missing
   */
  public FunctionRuntime.Builder runtime(StatefulFunctions functions) {
    FunctionRuntime.Builder builder = FunctionRuntime.builder(functions);
    variables
        .optional(WAKE_UP_QUEUE_URL)
        .ifPresent(url -> builder.wakeUps(new SqsMessageBus(sqs, url)));
    return builder
        .store(
            new DynamoDbFunctionStore(
                dynamoDb, variables.required(TABLE, "the application's DynamoDB table")))
        .queue(new SqsMessageBus(sqs, variables.required(QUEUE_URL, "the ingress FIFO queue")))
        .deadLetters(
            new SqsMessageBus(
                sqs, variables.required(DEAD_LETTER_QUEUE_URL, "the dead-letter FIFO queue")));
  }

  /** The variables this wiring reads. */
  public Variables variables() {
    return variables;
  }

  /** The DynamoDB client. */
  public DynamoDbClient dynamoDb() {
    return dynamoDb;
  }

  /** The SQS client. */
  public SqsClient sqs() {
    return sqs;
  }
}
