package dev.statekit.handlers;

import dev.statekit.aws.AwsConfig;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.bus.SqsMessageBus;
import dev.statekit.runtime.store.DynamoDbFunctionStore;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The self-hosted runtime's wiring on Lambda, read from environment variables that {@code
 * template.yaml} sets: {@code STATEKIT_TABLE} (the application table), {@code STATEKIT_QUEUE_URL}
 * (the ingress FIFO queue) and {@code STATEKIT_DEAD_LETTER_QUEUE_URL}; clients from {@link
 * AwsConfig}. Build it once, in a handler's constructor.
 */
public final class RuntimeEnvironment {
  /** The application table's name. */
  public static final String TABLE = "STATEKIT_TABLE";

  /** The ingress FIFO queue's URL. */
  public static final String QUEUE_URL = "STATEKIT_QUEUE_URL";

  /** The dead-letter FIFO queue's URL. */
  public static final String DEAD_LETTER_QUEUE_URL = "STATEKIT_DEAD_LETTER_QUEUE_URL";

  private final Map<String, String> variables;
  private final DynamoDbClient dynamoDb;
  private final SqsClient sqs;

  private RuntimeEnvironment(
      Map<String, String> variables, DynamoDbClient dynamoDb, SqsClient sqs) {
    this.variables = variables;
    this.dynamoDb = dynamoDb;
    this.sqs = sqs;
  }

  /** Reads this process's environment and builds the clients. */
  public static RuntimeEnvironment fromEnvironment() {
    AwsConfig aws = AwsConfig.fromEnvironment();
    return new RuntimeEnvironment(System.getenv(), aws.dynamoDbClient(), aws.sqsClient());
  }

  /** The given variables and clients (tests, the local runner). */
  public static RuntimeEnvironment of(
      Map<String, String> variables, DynamoDbClient dynamoDb, SqsClient sqs) {
    return new RuntimeEnvironment(
        Map.copyOf(variables),
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
    return FunctionRuntime.builder(functions)
        .store(new DynamoDbFunctionStore(dynamoDb, required(TABLE)))
        .queue(new SqsMessageBus(sqs, required(QUEUE_URL)))
        .deadLetters(new SqsMessageBus(sqs, required(DEAD_LETTER_QUEUE_URL)));
  }

  /** The DynamoDB client. */
  public DynamoDbClient dynamoDb() {
    return dynamoDb;
  }

  /** The SQS client. */
  public SqsClient sqs() {
    return sqs;
  }

  /**
   * A variable's value.
   *
   * @throws IllegalStateException if it is not set
   */
  public String required(String name) {
    String value = variables.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          name + " is not set; template.yaml sets it for the runtime's functions (see the README)");
    }
    return value;
  }
}
