package dev.statekit.examples.greeter;

import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.LoggingSink;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.runtime.FunctionRuntime;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The example functions on StateKit's own runtime: state in the application table, messages over
 * the ingress FIFO queue; greetings go to the greets queue ({@code GREETS_QUEUE_URL}), audits and
 * fired reminders to the log.
 */
public final class GreeterRuntime {
  /** The URL of the queue greetings go to. */
  public static final String GREETS_QUEUE_URL = "GREETS_QUEUE_URL";

  private GreeterRuntime() {}

  /** The runtime wired from the environment variables the README lists for the runtime. */
  public static FunctionRuntime fromEnvironment() {
    return create(RuntimeEnvironment.fromEnvironment());
  }

  /** The runtime wired from {@code environment}. */
  public static FunctionRuntime create(RuntimeEnvironment environment) {
    return environment
        .runtime(ExampleFunctions.registry())
        .egress(
            routes(
                environment.sqs(),
                environment.variables().required(GREETS_QUEUE_URL, "the greets queue")))
        .build();
  }

  /** Where the examples' egresses go. */
  public static EgressRoutes routes(SqsClient sqs, String greetsQueueUrl) {
    LoggingSink log = new LoggingSink();
    return EgressRoutes.builder()
        .route(Greeter.GREETS, new SqsEgressSink(sqs, greetsQueueUrl))
        .route(Audit.AUDITS, log)
        .route(Reminder.REMINDERS, log)
        .build();
  }
}
