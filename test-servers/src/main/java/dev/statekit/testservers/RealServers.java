package dev.statekit.testservers;

import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * JUnit 5 extension giving tests real servers: parameters of type {@link DynamoDbClient}, {@link
 * SqsClient}, {@link KinesisClient}, {@link TestTable} and {@link TestQueue} are resolved against
 * {@link LocalServers}. Clients are shared by the whole run; the table and the FIFO queue are
 * created once per test class. JUnit closes the clients when the run ends.
 *
 * <p>A server that can't be had fails the test with a message naming what is missing and the
 * variable that points the tests elsewhere. Only the Docker-only LocalStack profile skips, and says
 * so, where no Docker engine runs.
 */
public final class RealServers implements BeforeEachCallback, ParameterResolver {
  private static final Namespace NAMESPACE = Namespace.create(RealServers.class);
  private static volatile boolean toldDockerIsMissing;

  // Per test, not per class: Surefire reports a class aborted in beforeAll as an error, while
  // each aborted test shows as skipped with its reason.
  @Override
  public void beforeEach(ExtensionContext context) {
    if (LocalServers.useLocalStack()) {
      try {
        LocalServers.dynamoDb();
      } catch (DockerUnavailableException e) {
        if (!toldDockerIsMissing) {
          toldDockerIsMissing = true;
          System.out.println("[statekit] " + e.getMessage());
        }
        throw new TestAbortedException(e.getMessage());
      }
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == DynamoDbClient.class
        || type == SqsClient.class
        || type == KinesisClient.class
        || type == TestTable.class
        || type == TestQueue.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    ExtensionContext.Store run = context.getRoot().getStore(NAMESPACE);
    ExtensionContext.Store perClass = classContext(context).getStore(NAMESPACE);
    if (type == DynamoDbClient.class) {
      return dynamoDb(run);
    }
    if (type == SqsClient.class) {
      return sqs(run);
    }
    if (type == KinesisClient.class) {
      return run.getOrComputeIfAbsent(
          KinesisClient.class, k -> AwsClients.kinesis(), KinesisClient.class);
    }
    if (type == TestTable.class) {
      return perClass.getOrComputeIfAbsent(
          TestTable.class,
          k -> TestTable.create(dynamoDb(run), uniqueName(context, "t")),
          TestTable.class);
    }
    if (type == TestQueue.class) {
      return perClass.getOrComputeIfAbsent(
          TestQueue.class,
          k -> TestQueue.createFifo(sqs(run), uniqueName(context, "q")),
          TestQueue.class);
    }
    throw new ParameterResolutionException("RealServers cannot resolve " + type);
  }

  private static DynamoDbClient dynamoDb(ExtensionContext.Store run) {
    return run.getOrComputeIfAbsent(
        DynamoDbClient.class, k -> AwsClients.dynamoDb(), DynamoDbClient.class);
  }

  private static SqsClient sqs(ExtensionContext.Store run) {
    return run.getOrComputeIfAbsent(SqsClient.class, k -> AwsClients.sqs(), SqsClient.class);
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext current = context;
    while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
      current = current.getParent().get();
    }
    return current;
  }

  /** Names stay within SQS's 80 characters and DynamoDB's 255, and never repeat in a run. */
  private static String uniqueName(ExtensionContext context, String prefix) {
    String owner =
        context.getRequiredTestClass().getSimpleName().toLowerCase(Locale.ROOT).replace('$', '-');
    if (owner.length() > 40) {
      owner = owner.substring(0, 40);
    }
    return prefix + "-" + owner + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
