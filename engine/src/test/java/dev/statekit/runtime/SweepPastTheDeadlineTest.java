package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.StateKitException;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduled sweep gets the invocation's deadline and stops its timer sweeps in time, but it
 * first delivers the outboxes batches left behind, with no regard for the deadline. One outbox
 * whose sink does not answer (an egress endpoint that accepts the connection and stalls) keeps the
 * outbox sweep running past the function's timeout on every tick, so the invocation is cut off
 * before the timers are read: a delayed message of an unrelated address, due long ago, is never
 * sent. Failed before.
 */
class SweepPastTheDeadlineTest extends RuntimeFixture {
  static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(3);

  /** The stalled endpoint's connection, which answers once the test is over. */
  private final CountDownLatch endpointAnswers = new CountDownLatch(1);

  private volatile boolean endpointDown = true;

  private final ExecutorService lambda =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "lambda-invocation");
            t.setDaemon(true);
            return t;
          });

  @AfterEach
  void release() {
    endpointAnswers.countDown();
    lambda.shutdownNow();
  }

  /** Refuses while down (the batch leaves its outbox to the sweep), then stalls. */
  private final EgressSink stalling =
      new EgressSink() {
        @Override
        public void deliver(List<EgressRecord> records) {
          if (endpointDown) {
            throw new EgressException(
                StateKitException.Reason.UNAVAILABLE, "the endpoint is down", null);
          }
          try {
            endpointAnswers.await(10, TimeUnit.MINUTES);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          throw new EgressException(
              StateKitException.Reason.UNAVAILABLE, "the endpoint did not answer", null);
        }
      };

  private FunctionRuntime stallingRuntime() {
    return runtime(
        b ->
            b.egress(
                EgressRoutes.builder()
                    .route(TestFunctions.COUNTED, stalling)
                    .route(TestFunctions.FIRED, fired)
                    .build()));
  }

  @Test
  void aDelayedMessageIsSentThoughAnOutboxOfAnotherAddressStallsItsSink() {
    FunctionRuntime runtime = stallingRuntime();
    Address reminder = address(TestFunctions.REMINDER, "due");
    // A counter's egress record finds its sink down: applied, its outbox left for the sweep.
    runtime.invoke(count("stalled", 1));
    runtime.invoke(
        DirectInvocation.of(MessageBuilder.forAddress(reminder).withValue("set:60000:t1").build()));
    // The endpoint comes back, but stalls every connection.
    endpointDown = false;
    clock.advance(Duration.ofMinutes(3));

    List<String> ticks = new ArrayList<>();
    for (int tick = 0; tick < 3; tick++) {
      // Lambda resets the execution environment after a timeout: a fresh runtime each time.
      FunctionRuntime fresh = stallingRuntime();
      EntryPoint entry =
          EntryPoint.builder()
              .scheduled(FunctionRuntime.SWEEP_TASK, fresh.sweepTask())
              .anyScheduleRule()
              .build();
      Future<byte[]> answer =
          lambda.submit(() -> entry.invoke(scheduledEvent(), Deadline.after(FUNCTION_TIMEOUT)));
      try {
        ticks.add(
            new String(
                answer.get(FUNCTION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                StandardCharsets.UTF_8));
      } catch (TimeoutException e) {
        ticks.add("timed out");
      } catch (Exception e) {
        ticks.add("failed: " + e);
      }
      clock.advance(Duration.ofMinutes(1));
    }

    boolean sent =
        queue().peekAll().stream().anyMatch(m -> m.getKey().contains("\"token\":\"t1\""));
    assertTrue(sent, "the due delayed message was sent (ticks: " + ticks + ")");
  }

  private static byte[] scheduledEvent() {
    return ("{\"version\":\"0\",\"id\":\"53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa\","
            + "\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
            + "\"account\":\"123456789012\",\"time\":\"2030-01-01T00:03:00Z\","
            + "\"region\":\"eu-west-1\","
            + "\"resources\":[\"arn:aws:events:eu-west-1:123456789012:rule/tick\"],\"detail\":{}}")
        .getBytes(StandardCharsets.UTF_8);
  }
}
