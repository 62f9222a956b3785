package dev.statekit.testservers;

import java.net.URI;
import org.elasticmq.NodeAddress;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;

/** ElasticMQ, an SQS-compatible server embedded in this JVM (about 4 s to start). */
final class ElasticMq {
  static final String HINT =
      "Or set STATEKIT_SQS_ENDPOINT to a running SQS-compatible endpoint"
          + " (LocalStack: http://localhost:4566).";

  private ElasticMq() {}

  static URI start() {
    int port = ServerProcess.freePort();
    SQSRestServer server;
    try {
      server =
          SQSRestServerBuilder.withInterface("127.0.0.1")
              .withPort(port)
              // Queue URLs the server hands out must point at the port it really listens on.
              .withServerAddress(new NodeAddress("http", "127.0.0.1", port, ""))
              .start();
      server.waitUntilStarted();
    } catch (RuntimeException e) {
      throw new ServerUnavailableException(
          "The embedded SQS server (ElasticMQ) did not start on port "
              + port
              + ": "
              + e
              + ". "
              + HINT,
          e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::stopAndWait, "elasticmq-stop"));
    return URI.create("http://127.0.0.1:" + port);
  }
}
