package dev.statekit.benchmarks.coldstart;

import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The floor under every payload that reaches AWS, in a fresh JVM with the same jar on its class
 * path: the AWS SDK alone, configured as AWS advises for a cold start (explicit region and
 * credentials, the URL connection client shared by both clients), builds a DynamoDB and an SQS
 * client and makes one call with each (a {@code GetItem} on the application's table, a {@code
 * SendMessage} to its wake-up queue), with no StateKit code at all. Arguments: none; the
 * environment is the one the handler's child gets.
 */
public final class AwsSdkChild {
  private AwsSdkChild() {}

  /** Entry point of the child JVM. */
  public static void main(String[] args) {
    long start = System.nanoTime();
    Map<String, String> env = System.getenv();
    SdkHttpClient http = UrlConnectionHttpClient.create();
    StaticCredentialsProvider credentials =
        StaticCredentialsProvider.create(AwsBasicCredentials.create("statekit", "statekit"));
    Region region = Region.of(env.get("AWS_REGION"));
    try (DynamoDbClient dynamoDb =
            DynamoDbClient.builder()
                .region(region)
                .credentialsProvider(credentials)
                .httpClient(http)
                .endpointOverride(URI.create(env.get("STATEKIT_DYNAMODB_ENDPOINT")))
                .build();
        SqsClient sqs =
            SqsClient.builder()
                .region(region)
                .credentialsProvider(credentials)
                .httpClient(http)
                .endpointOverride(URI.create(env.get("STATEKIT_SQS_ENDPOINT")))
                .build()) {
      long constructed = System.nanoTime();
      dynamoDb.getItem(
          r ->
              r.tableName(env.get("STATEKIT_TABLE"))
                  .key(
                      Map.of(
                          "pk", AttributeValue.fromS("cold-start"),
                          "sk", AttributeValue.fromS("floor"))));
      sqs.sendMessage(
          r -> r.queueUrl(env.get("STATEKIT_WAKE_UP_QUEUE_URL")).messageBody("cold-start floor"));
      long done = System.nanoTime();
      System.out.println(
          "DONE construct_ns="
              + (constructed - start)
              + " prime_ns=0 invoke_ns="
              + (done - constructed)
              + " answer=0");
      System.out.flush();
    }
  }
}
