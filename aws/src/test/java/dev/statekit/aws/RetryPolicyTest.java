package dev.statekit.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

class RetryPolicyTest {
  private final RetryPolicy fast =
      RetryPolicy.builder().maxAttempts(4).baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build();

  @Test
  void throttlingServerErrorsAndBrokenConnectionsPass() {
    assertTrue(RetryPolicy.isPassing(service("ProvisionedThroughputExceededException", 400)));
    assertTrue(RetryPolicy.isPassing(service("ThrottlingException", 400)));
    assertTrue(RetryPolicy.isPassing(service("RequestLimitExceeded", 400)));
    assertTrue(
        RetryPolicy.isPassing(service("KmsThrottled", 400)),
        "SQS's KMS throttling on an SSE-KMS queue (it was a bad request, failing sends for good)");
    assertTrue(RetryPolicy.isPassing(service("KMS.ThrottlingException", 400)));
    assertTrue(RetryPolicy.isPassing(service("InternalServerError", 500)));
    assertTrue(RetryPolicy.isPassing(service("Whatever", 503)));
    assertTrue(RetryPolicy.isPassing(SdkClientException.create("connection reset")));
    assertTrue(RetryPolicy.isPassing(cancelled("None", "TransactionConflict")));
  }

  @Test
  void conditionFailuresAndBadRequestsDoNot() {
    assertFalse(
        RetryPolicy.isPassing(ConditionalCheckFailedException.builder().statusCode(400).build()));
    assertFalse(RetryPolicy.isPassing(service("ValidationException", 400)));
    assertFalse(RetryPolicy.isPassing(cancelled("ConditionalCheckFailed", "TransactionConflict")));
    assertFalse(RetryPolicy.isPassing(new IllegalStateException("a bug")));
  }

  @Test
  void retriesPassingFailuresUntilTheCallSucceeds() {
    AtomicInteger calls = new AtomicInteger();

    String result =
        fast.call(
            () -> {
              if (calls.incrementAndGet() < 3) {
                throw ProvisionedThroughputExceededException.builder().statusCode(400).build();
              }
              return "done";
            });

    assertEquals("done", result);
    assertEquals(3, calls.get());
  }

  @Test
  void givesUpAfterTheLastAttemptWithTheLastFailure() {
    AtomicInteger calls = new AtomicInteger();
    RuntimeException last = service("ThrottlingException", 400);

    RuntimeException thrown =
        assertThrows(
            RuntimeException.class,
            () ->
                fast.run(
                    () -> {
                      calls.incrementAndGet();
                      throw last;
                    }));

    assertSame(last, thrown);
    assertEquals(4, calls.get());
  }

  @Test
  void throwsOtherFailuresAtOnce() {
    AtomicInteger calls = new AtomicInteger();

    assertThrows(
        IllegalArgumentException.class,
        () ->
            fast.run(
                () -> {
                  calls.incrementAndGet();
                  throw new IllegalArgumentException("bad input");
                }));

    assertEquals(1, calls.get());
  }

  @Test
  void sendsWhatABatchLeftUndoneAgainUntilNothingIsLeft() {
    List<List<Integer>> sent = new ArrayList<>();
    List<Integer> left =
        fast.untilDone(
            List.of(1, 2, 3, 4),
            pending -> {
              sent.add(pending);
              return pending.subList(0, pending.size() / 2);
            },
            List::isEmpty);
    assertEquals(List.of(), left);
    assertEquals(List.of(List.of(1, 2, 3, 4), List.of(1, 2), List.of(1)), sent);
  }

  @Test
  void answersWhatIsStillLeftAfterTheLastAttempt() {
    AtomicInteger attempts = new AtomicInteger();
    List<Integer> left =
        fast.untilDone(
            List.of(7),
            pending -> {
              attempts.incrementAndGet();
              return pending;
            },
            List::isEmpty);
    assertEquals(List.of(7), left, "the caller reports what DynamoDB kept leaving undone");
    assertEquals(4, attempts.get());
  }

  @Test
  void perItemCodesPassOnlyForThrottlingConflictsAndServerErrors() {
    for (String code :
        List.of(
            "TransactionConflict",
            "ThrottlingError",
            "ProvisionedThroughputExceeded",
            "RequestLimitExceeded",
            "InternalServerError")) {
      assertTrue(RetryPolicy.isPassingItemCode(code), code);
    }
    for (String code :
        List.of("ConditionalCheckFailed", "DuplicateItem", "ValidationError", "AccessDenied")) {
      assertFalse(RetryPolicy.isPassingItemCode(code), code);
    }
    assertFalse(RetryPolicy.isPassingItemCode(null));
  }

  @Test
  void refusesSettingsThatMakeNoSense() {
    var noAttempts =
        assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder().maxAttempts(0));
    var backwards =
        assertThrows(
            IllegalStateException.class,
            () ->
                RetryPolicy.builder()
                    .baseDelay(Duration.ofSeconds(2))
                    .maxDelay(Duration.ofSeconds(1))
                    .build());

    assertTrue(noAttempts.getMessage().contains("1 (no retry)"), noAttempts.getMessage());
    assertTrue(backwards.getMessage().contains("maxDelay"), backwards.getMessage());
  }

  private static AwsServiceException service(String code, int status) {
    return AwsServiceException.builder()
        .statusCode(status)
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).build())
        .build();
  }

  private static TransactionCanceledException cancelled(String... codes) {
    CancellationReason[] reasons = new CancellationReason[codes.length];
    for (int i = 0; i < codes.length; i++) {
      reasons[i] = CancellationReason.builder().code(codes[i]).build();
    }
    return TransactionCanceledException.builder()
        .statusCode(400)
        .cancellationReasons(reasons)
        .build();
  }
}
