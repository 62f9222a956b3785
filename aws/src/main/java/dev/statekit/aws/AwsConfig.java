package dev.statekit.aws;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Region, endpoints and credentials for the SDK clients StateKit uses, read from environment
 * variables: {@code AWS_REGION}, and {@code STATEKIT_DYNAMODB_ENDPOINT}, {@code
 * STATEKIT_SQS_ENDPOINT}, {@code STATEKIT_KINESIS_ENDPOINT} to point a service at an emulator.
 *
 * <p>On Lambda no endpoint is set and the clients use the function's role, through the container
 * credentials endpoint where Lambda provides one (SnapStart) or the keys in the environment.
 * Against an emulator without AWS credentials in the environment, fixed credentials are used, which
 * emulators accept.
 *
 * @param region the AWS region
 * @param dynamoDbEndpoint a DynamoDB endpoint to use instead of the regional one
 * @param sqsEndpoint an SQS endpoint to use instead of the regional one
 * @param kinesisEndpoint a Kinesis endpoint to use instead of the regional one
 * @param credentials the credentials provider for every client
 */
public record AwsConfig(
    Region region,
    Optional<URI> dynamoDbEndpoint,
    Optional<URI> sqsEndpoint,
    Optional<URI> kinesisEndpoint,
    AwsCredentialsProvider credentials) {

  /** Environment variable that overrides the DynamoDB endpoint. */
  public static final String DYNAMODB_ENDPOINT = "STATEKIT_DYNAMODB_ENDPOINT";

  /** Environment variable that overrides the SQS endpoint. */
  public static final String SQS_ENDPOINT = "STATEKIT_SQS_ENDPOINT";

  /** Environment variable that overrides the Kinesis endpoint. */
  public static final String KINESIS_ENDPOINT = "STATEKIT_KINESIS_ENDPOINT";

  /** In a class of its own, so {@link #check} loads none of the SDK's credential classes. */
  private static final class Emulator {
    static final AwsCredentialsProvider CREDENTIALS =
        StaticCredentialsProvider.create(AwsBasicCredentials.create("statekit", "statekit"));
  }

  /**
   * Reads and checks every variable {@link #fromVariables} reads, without building anything: a
   * wiring that builds its configuration with the first payload that needs AWS calls it at
   * construction, so a malformed endpoint still fails there.
   *
   * @throws IllegalArgumentException if an endpoint variable is not an http(s) URL
   */
  public static void check(Map<String, String> variables) {
    variables.get("AWS_REGION");
    endpoint(variables, DYNAMODB_ENDPOINT);
    endpoint(variables, SQS_ENDPOINT);
    endpoint(variables, KINESIS_ENDPOINT);
    variables.containsKey("AWS_CONTAINER_CREDENTIALS_FULL_URI");
    variables.containsKey("AWS_ACCESS_KEY_ID");
  }

  /** Reads the configuration from this process's environment. */
  public static AwsConfig fromEnvironment() {
    return fromVariables(System.getenv());
  }

  /**
   * Reads the configuration from the given variables.
   *
   * @throws IllegalArgumentException if an endpoint variable is not an http(s) URL
   */
  public static AwsConfig fromVariables(Map<String, String> variables) {
    String region = variables.getOrDefault("AWS_REGION", "");
    Optional<URI> dynamoDb = endpoint(variables, DYNAMODB_ENDPOINT);
    Optional<URI> sqs = endpoint(variables, SQS_ENDPOINT);
    Optional<URI> kinesis = endpoint(variables, KINESIS_ENDPOINT);
    boolean anyEmulator = dynamoDb.isPresent() || sqs.isPresent() || kinesis.isPresent();
    // Lambda hands the role's credentials over one of two ways: a container endpoint (functions
    // with SnapStart, so credentials refresh after a restore) or keys in the environment. Picking
    // the provider directly skips probing the default chain at cold start; elsewhere the default
    // chain finds profiles and SSO.
    AwsCredentialsProvider credentials;
    if (variables.containsKey("AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
      credentials = ContainerCredentialsProvider.builder().build();
    } else if (variables.containsKey("AWS_ACCESS_KEY_ID")) {
      credentials = EnvironmentVariableCredentialsProvider.create();
    } else if (anyEmulator) {
      credentials = Emulator.CREDENTIALS;
    } else {
      credentials = DefaultCredentialsProvider.builder().build();
    }
    return new AwsConfig(
        Region.of(region.isBlank() ? "us-east-1" : region), dynamoDb, sqs, kinesis, credentials);
  }

  /**
   * Points every service at one endpoint (LocalStack, or the emulators behind one address), with
   * credentials the emulators accept.
   */
  public static AwsConfig allAt(URI dynamoDb, URI sqs, URI kinesis) {
    return new AwsConfig(
        Region.US_EAST_1,
        Optional.of(dynamoDb),
        Optional.of(sqs),
        Optional.of(kinesis),
        Emulator.CREDENTIALS);
  }

  /** A DynamoDB client for this configuration. */
  public DynamoDbClient dynamoDbClient() {
    var builder =
        DynamoDbClient.builder()
            .region(region)
            .credentialsProvider(credentials)
            .httpClient(SharedHttp.CLIENT)
            .overrideConfiguration(c -> c.addExecutionInterceptor(TelemetryInterceptor.INSTANCE));
    dynamoDbEndpoint.ifPresent(builder::endpointOverride);
    return builder.build();
  }

  /** An SQS client for this configuration. */
  public SqsClient sqsClient() {
    var builder =
        SqsClient.builder()
            .region(region)
            .credentialsProvider(credentials)
            .httpClient(SharedHttp.CLIENT)
            .overrideConfiguration(c -> c.addExecutionInterceptor(TelemetryInterceptor.INSTANCE));
    sqsEndpoint.ifPresent(builder::endpointOverride);
    return builder.build();
  }

  /**
   * A Kinesis client for this configuration. With an endpoint override the SDK's CBOR encoding is
   * switched off for the process (kinesalite speaks only JSON; AWS and LocalStack speak both).
   */
  public KinesisClient kinesisClient() {
    if (kinesisEndpoint.isPresent()) {
      System.setProperty("aws.cborEnabled", "false");
    }
    var builder =
        KinesisClient.builder()
            .region(region)
            .credentialsProvider(credentials)
            .httpClient(SharedHttp.CLIENT)
            .overrideConfiguration(c -> c.addExecutionInterceptor(TelemetryInterceptor.INSTANCE));
    kinesisEndpoint.ifPresent(builder::endpointOverride);
    return builder.build();
  }

  /**
   * One HTTP client for every SDK client of the process: it is thread-safe, the JDK pools its
   * connections anyway, and building one sets up a TLS context (the trust store read and parsed),
   * which a cold start then pays once rather than once per service. The SDK leaves a client it was
   * given open when it closes.
   */
  private static final class SharedHttp {
    static final SdkHttpClient CLIENT = UrlConnectionHttpClient.create();
  }

  private static Optional<URI> endpoint(Map<String, String> variables, String name) {
    String value = variables.get(name);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    URI uri;
    try {
      uri = URI.create(value.trim());
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null
        || uri.getHost() == null
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
      throw new IllegalArgumentException(
          name + " must be an http(s) URL such as http://127.0.0.1:8000, not '" + value + "'");
    }
    return Optional.of(uri);
  }
}
