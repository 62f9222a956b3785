package dev.statekit.testservers;

import java.net.URI;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/** LocalStack in Docker through Testcontainers: one container serves DynamoDB, SQS and Kinesis. */
final class LocalStack {
  static final String IMAGE = "localstack/localstack:4.4";

  private LocalStack() {}

  static URI start() {
    if (!DockerClientFactory.instance().isDockerAvailable()) {
      throw new DockerUnavailableException(
          "The localstack profile needs a Docker engine and none answers here; its integration"
              + " tests are skipped. Run without -Plocalstack to use the embedded servers.");
    }
    LocalStackContainer container =
        new LocalStackContainer(DockerImageName.parse(IMAGE))
            .withServices("dynamodb", "sqs", "kinesis");
    container.start();
    Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "localstack-stop"));
    return container.getEndpoint();
  }
}
