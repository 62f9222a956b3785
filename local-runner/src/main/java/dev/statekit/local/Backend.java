package dev.statekit.local;

import dev.statekit.aws.AwsConfig;
import dev.statekit.testservers.LocalServers;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Where the local runner finds the DynamoDB, SQS and Kinesis APIs: the embedded servers (Dynoxide,
 * ElasticMQ, kinesalite, installed on first use), LocalStack, real AWS, or nothing at all (the
 * in-memory adapters).
 *
 * @param mode which of them
 * @param dynamoDb the DynamoDB endpoint, {@code null} for AWS's own or in memory
 * @param sqs the SQS endpoint, {@code null} for AWS's own or in memory
 * @param kinesis the Kinesis endpoint, {@code null} for AWS's own or in memory
 */
record Backend(Mode mode, URI dynamoDb, URI sqs, URI kinesis) {
  /** The kinds of backend. */
  enum Mode {
    EMBEDDED("embedded servers"),
    LOCALSTACK("LocalStack"),
    AWS("AWS"),
    IN_MEMORY("in memory");

    final String label;

    Mode(String label) {
      this.label = label;
    }
  }

  /** The embedded servers, started now if this JVM has not started them yet. */
  static Backend embedded() {
    return new Backend(
        Mode.EMBEDDED, LocalServers.dynamoDb(), LocalServers.sqs(), LocalServers.kinesis());
  }

  /** Every API at one LocalStack endpoint. */
  static Backend localStack(URI endpoint) {
    return new Backend(Mode.LOCALSTACK, endpoint, endpoint, endpoint);
  }

  /** Real AWS: region and credentials from the environment, as the AWS CLI finds them. */
  static Backend aws() {
    return new Backend(Mode.AWS, null, null, null);
  }

  /** No servers: the in-memory adapters. */
  static Backend inMemory() {
    return new Backend(Mode.IN_MEMORY, null, null, null);
  }

  /** Given endpoints (a running {@code serve} recorded them). */
  static Backend at(Mode mode, URI dynamoDb, URI sqs, URI kinesis) {
    return new Backend(mode, dynamoDb, sqs, kinesis);
  }

  /** True if there are servers to talk to. */
  boolean hasServers() {
    return mode != Mode.IN_MEMORY;
  }

  /**
   * The endpoint variables a handler's wiring reads to reach the same servers ({@code
   * STATEKIT_*_ENDPOINT}), and the region.
   */
  Map<String, String> variables() {
    Map<String, String> variables = new LinkedHashMap<>();
    String region = System.getenv("AWS_REGION");
    variables.put("AWS_REGION", region == null || region.isBlank() ? "us-east-1" : region);
    if (dynamoDb != null) {
      variables.put(AwsConfig.DYNAMODB_ENDPOINT, dynamoDb.toString());
      variables.put(AwsConfig.SQS_ENDPOINT, sqs.toString());
      variables.put(AwsConfig.KINESIS_ENDPOINT, kinesis.toString());
    }
    if (mode == Mode.AWS) {
      // The default chain finds profiles and SSO; pass the keys on if they are set.
      for (String name :
          new String[] {
            "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"
          }) {
        String value = System.getenv(name);
        if (value != null) {
          variables.put(name, value);
        }
      }
    }
    return variables;
  }

  private AwsConfig config() {
    return AwsConfig.fromVariables(variables());
  }

  DynamoDbClient dynamoDbClient() {
    return config().dynamoDbClient();
  }

  SqsClient sqsClient() {
    return config().sqsClient();
  }

  KinesisClient kinesisClient() {
    return config().kinesisClient();
  }

  /** One line for the console. */
  String describe() {
    return switch (mode) {
      case EMBEDDED, LOCALSTACK ->
          mode.label + ": DynamoDB " + dynamoDb + ", SQS " + sqs + ", Kinesis " + kinesis;
      case AWS -> "AWS (" + variables().get("AWS_REGION") + ")";
      case IN_MEMORY -> "in-memory adapters (no servers)";
    };
  }
}
