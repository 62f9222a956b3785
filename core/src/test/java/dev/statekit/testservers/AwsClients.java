package dev.statekit.testservers;

import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** SDK clients pointed at {@link LocalServers}' endpoints. The caller closes them. */
public final class AwsClients {
  private AwsClients() {}

  /** A DynamoDB client for {@link LocalServers#dynamoDb()}. */
  public static DynamoDbClient dynamoDb() {
    return DynamoDbClient.builder()
        .endpointOverride(LocalServers.dynamoDb())
        .region(LocalServers.region())
        .credentialsProvider(LocalServers.credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  /** An SQS client for {@link LocalServers#sqs()}. */
  public static SqsClient sqs() {
    return SqsClient.builder()
        .endpointOverride(LocalServers.sqs())
        .region(LocalServers.region())
        .credentialsProvider(LocalServers.credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  /** A Kinesis client for {@link LocalServers#kinesis()} (CBOR off: kinesalite speaks JSON). */
  public static KinesisClient kinesis() {
    System.setProperty("aws.cborEnabled", "false");
    return KinesisClient.builder()
        .endpointOverride(LocalServers.kinesis())
        .region(LocalServers.region())
        .credentialsProvider(LocalServers.credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }
}
