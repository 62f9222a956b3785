package dev.statekit.application;

import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.Priming;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * Wiring that reaches nothing: offline SDK clients and the runtime's variables pointing nowhere.
 */
final class OfflineWiring {
  private OfflineWiring() {}

  /** Clients that open no connection ({@link Priming}'s, and a Kinesis client of a dead port). */
  static AwsWiring.Clients clients() {
    return new AwsWiring.Clients(
        Priming::dynamoDbClient,
        Priming::sqsClient,
        AwsConfig.allAt(
                URI.create("http://127.0.0.1:9"),
                URI.create("http://127.0.0.1:9"),
                URI.create("http://127.0.0.1:9"))
            ::kinesisClient);
  }

  /** The runtime's variables, as template.yaml's IngressFunction gets them (no pipeline's). */
  static Map<String, String> runtimeVariables() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_REGION", "us-east-1");
    env.put("STATEKIT_TABLE", "app");
    env.put("STATEKIT_QUEUE_URL", "http://127.0.0.1:9/000000000000/ingress.fifo");
    env.put("STATEKIT_DEAD_LETTER_QUEUE_URL", "http://127.0.0.1:9/000000000000/dead.fifo");
    return env;
  }
}
