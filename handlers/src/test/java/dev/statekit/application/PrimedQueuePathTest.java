package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.types.TypeName;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A priming SQS event runs the runtime's queue path before a SnapStart snapshot, though it names a
 * queue of its own ({@code priming.fifo}), not the ingress queue: the live runtime takes its
 * ingress queue's FIFO batches only, the offline one used for priming takes any.
 */
class PrimedQueuePathTest {
  private static final AtomicInteger RUNS = new AtomicInteger();

  @Test
  void aPrimingQueueEventReachesTheFunction() {
    Application application =
        Application.builder("primed-queue")
            .functions(
                StatefulFunctions.builder()
                    .withFunction(
                        TypeName.of("example", "greeter"),
                        (context, message) -> RUNS.incrementAndGet())
                    .build())
            .priming(
                "{\"Records\":[{\"messageId\":\"priming\",\"body\":\"{\\\"target\\\":"
                    + "\\\"example/greeter/priming\\\",\\\"typename\\\":"
                    + "\\\"io.statefun.types/string\\\",\\\"value\\\":\\\"hi\\\"}\","
                    + "\"attributes\":{\"MessageGroupId\":\"example/greeter/priming\","
                    + "\"SequenceNumber\":\"1\",\"ApproximateReceiveCount\":\"1\"},"
                    + "\"eventSource\":\"aws:sqs\","
                    + "\"eventSourceARN\":\"arn:aws:sqs:us-east-1:000000000000:priming.fifo\"}]}")
            .build();

    AwsWiring.of(
            application, Variables.of(OfflineWiring.runtimeVariables()), OfflineWiring.clients())
        .ingressEntryPoint()
        .prime();

    assertTrue(RUNS.get() > 0, "the priming event ran the function");
  }
}
