package dev.statekit.aws;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * SDK clients for priming before a SnapStart snapshot: the same services and request paths as the
 * real clients, answered in process by a client that opens no connection (every call succeeds with
 * an empty answer). Wire a second copy of the application's code on them and run it once in the
 * handler's checkpoint hook: the classes and code paths of a real invocation are then loaded in the
 * snapshot, and nothing that could go stale is.
 */
public final class Priming {
  private static final URI NOWHERE = URI.create("http://priming.invalid");
  private static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("priming", "priming"));

  private Priming() {}

  /** A DynamoDB client whose every call succeeds at once with an empty answer. */
  public static DynamoDbClient dynamoDbClient() {
    return DynamoDbClient.builder()
        .region(Region.US_EAST_1)
        .endpointOverride(NOWHERE)
        .credentialsProvider(CREDENTIALS)
        .httpClient(new OfflineHttpClient())
        .build();
  }

  /** An SQS client whose every call succeeds at once with an empty answer. */
  public static SqsClient sqsClient() {
    return SqsClient.builder()
        .region(Region.US_EAST_1)
        .endpointOverride(NOWHERE)
        .credentialsProvider(CREDENTIALS)
        .httpClient(new OfflineHttpClient())
        // The offline answers carry no digests of the bodies sent.
        .checksumValidationEnabled(false)
        .build();
  }
}
