package dev.statekit.testservers;

import java.net.URI;
import java.util.List;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
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
    return local(DynamoDbClient.builder(), LocalServers.dynamoDb(), true, interceptors).build();
  }

  /**
   * A DynamoDB client like {@link #dynamoDb}, with the SDK's own retries off, so that the code
   * under test sees every throttle and failure the interceptors inject.
   */
  public static DynamoDbClient dynamoDbWithoutSdkRetries(ExecutionInterceptor... interceptors) {
    return local(DynamoDbClient.builder(), LocalServers.dynamoDb(), false, interceptors).build();
  }

  /**
   * An SQS client for {@link LocalServers#sqs()}; each call also goes through {@code interceptors},
   * in order.
   */
  public static SqsClient sqs(ExecutionInterceptor... interceptors) {
    return local(SqsClient.builder(), LocalServers.sqs(), true, interceptors).build();
  }

  /** An SQS client like {@link #sqs}, with the SDK's own retries off. */
  public static SqsClient sqsWithoutSdkRetries(ExecutionInterceptor... interceptors) {
    return local(SqsClient.builder(), LocalServers.sqs(), false, interceptors).build();
  }

  /** A Kinesis client for {@link LocalServers#kinesis()} (CBOR off: kinesalite speaks JSON). */
  public static KinesisClient kinesis() {
    System.setProperty("aws.cborEnabled", "false");
    return local(KinesisClient.builder(), LocalServers.kinesis(), true).build();
  }

  private static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B local(
      B builder, URI endpoint, boolean sdkRetries, ExecutionInterceptor... interceptors) {
    return builder
        .endpointOverride(endpoint)
        .region(LocalServers.region())
        .credentialsProvider(LocalServers.credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(
            c -> {
              c.executionInterceptors(List.of(interceptors));
              if (!sdkRetries) {
                c.retryStrategy(AwsRetryStrategy.doNotRetry());
              }
            });
  }
}
