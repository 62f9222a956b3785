package dev.statekit.testservers;

import java.net.URI;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * The endpoints of the DynamoDB, SQS and Kinesis APIs for this JVM. Each is, in order of
 * preference: the endpoint in its environment variable; LocalStack when {@code
 * -Dstatekit.servers=localstack}; otherwise an embedded server started on first use and shared by
 * every caller until the JVM exits.
 */
public final class LocalServers {
  /** Environment variable naming a DynamoDB endpoint to use instead of Dynoxide. */
  public static final String DYNAMODB_ENDPOINT = "STATEKIT_DYNAMODB_ENDPOINT";

  /** Environment variable naming an SQS endpoint to use instead of ElasticMQ. */
  public static final String SQS_ENDPOINT = "STATEKIT_SQS_ENDPOINT";

  /** Environment variable naming a Kinesis endpoint to use instead of kinesalite. */
  public static final String KINESIS_ENDPOINT = "STATEKIT_KINESIS_ENDPOINT";

  private static final Lazy<URI> LOCALSTACK = new Lazy<>(LocalStack::start);
  private static final Lazy<URI> DYNAMODB =
      new Lazy<>(() -> resolve("DynamoDB", DYNAMODB_ENDPOINT, "Dynoxide", Dynoxide::start));
  private static final Lazy<URI> SQS =
      new Lazy<>(() -> resolve("SQS", SQS_ENDPOINT, "ElasticMQ", ElasticMq::start));
  private static final Lazy<URI> KINESIS =
      new Lazy<>(() -> resolve("Kinesis", KINESIS_ENDPOINT, "kinesalite", Kinesalite::start));

  private LocalServers() {}

  /** The DynamoDB API endpoint, starting Dynoxide if nothing else is configured. */
  public static URI dynamoDb() {
    return DYNAMODB.get();
  }

  /** The SQS API endpoint, starting ElasticMQ if nothing else is configured. */
  public static URI sqs() {
    return SQS.get();
  }

  /** The Kinesis API endpoint, starting kinesalite if nothing else is configured. */
  public static URI kinesis() {
    return KINESIS.get();
  }

  /**
   * True if {@link #dynamoDb()} would start a new, empty server: nothing configured elsewhere and
   * none started by this JVM yet.
   */
  public static boolean dynamoDbWouldStartEmpty() {
    String configured = System.getenv(DYNAMODB_ENDPOINT);
    return (configured == null || configured.isBlank()) && !useLocalStack() && !DYNAMODB.started();
  }

  /** {@code AWS_REGION}, or us-east-1 for the emulators, which accept any region. */
  public static Region region() {
    String region = System.getenv("AWS_REGION");
    return Region.of(region == null || region.isBlank() ? "us-east-1" : region);
  }

  /**
   * The SDK's default chain where AWS credentials are configured (a real AWS endpoint), else the
   * fixed credentials the emulators accept.
   */
  public static AwsCredentialsProvider credentials() {
    if (System.getenv("AWS_ACCESS_KEY_ID") != null || System.getenv("AWS_PROFILE") != null) {
      return DefaultCredentialsProvider.builder().build();
    }
    return StaticCredentialsProvider.create(AwsBasicCredentials.create("statekit", "statekit"));
  }

  /** True when {@code -Dstatekit.servers=localstack} selects LocalStack. */
  public static boolean useLocalStack() {
    return "localstack".equals(System.getProperty("statekit.servers"));
  }

  private static URI resolve(
      String api, String variable, String embeddedName, Supplier<URI> embedded) {
    String configured = System.getenv(variable);
    URI endpoint;
    String source;
    if (configured != null && !configured.isBlank()) {
      endpoint = URI.create(configured.trim());
      source = "from " + variable;
    } else if (useLocalStack()) {
      endpoint = LOCALSTACK.get();
      source = "LocalStack";
    } else {
      endpoint = embedded.get();
      source = embeddedName + ", started for this JVM";
    }
    // One line per API, so a test log shows which servers the integration tests really used.
    System.out.println("[statekit] " + api + " API at " + endpoint + " (" + source + ")");
    return endpoint;
  }

  /** Starts a server at most once; a failure is remembered so every test reports the same cause. */
  private static final class Lazy<T> {
    private final Supplier<T> start;
    private T value;
    private RuntimeException failure;

    Lazy(Supplier<T> start) {
      this.start = start;
    }

    synchronized boolean started() {
      return value != null;
    }

    synchronized T get() {
      if (failure != null) {
        throw failure;
      }
      if (value == null) {
        try {
          value = start.get();
        } catch (RuntimeException e) {
          failure = e;
          throw e;
        }
      }
      return value;
    }
  }
}
