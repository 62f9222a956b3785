package dev.statekit.testservers;

import java.util.List;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** SDK clients pointed at {@link LocalServers}' endpoints. The caller closes them. */
public final class AwsClients {
  private AwsClients() {}

  /**
   * A DynamoDB client for {@link LocalServers#dynamoDb()}; each call also goes through {@code
   * interceptors} (e.g. a cost meter), in order.
   */
  public static DynamoDbClient dynamoDb(ExecutionInterceptor... interceptors) {
    return DynamoDbClient.builder()
        .endpointOverride(LocalServers.dynamoDb())
        .region(LocalServers.region())
        .credentialsProvider(LocalServers.credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.executionInterceptors(List.of(interceptors)))
        .build();
  }

  /**
   * An SQS client for {@link LocalServers#sqs()}; each call also goes through {@code interceptors},
   * in order.
   */
  public static SqsClient sqs(ExecutionInterceptor... interceptors) {
    return SqsClient.builder()
        .endpointOverride(LocalServers.sqs())
        .region(LocalServers.region())
        .credentialsProvider(LocalServers.credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.executionInterceptors(List.of(interceptors)))
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
