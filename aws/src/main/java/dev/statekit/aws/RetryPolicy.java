package dev.statekit.aws;

import dev.statekit.StateKitException;
import dev.statekit.concurrent.Backoff;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * Retries AWS calls that failed for a reason that passes — throttling ({@code
 * ProvisionedThroughputExceeded}, {@code ThrottlingException}, {@code RequestLimitExceeded}, ...),
 * a server error (5xx), a transaction conflict, the network — with exponential backoff and full
 * jitter. Other failures are thrown at once. Immutable and thread-safe:
 *
 * <pre>{@code
 * RetryPolicy retry = RetryPolicy.builder().maxAttempts(6).baseDelay(Duration.ofMillis(20)).build();
 * }</pre>
 *
 * <p>This sits above the SDK client's own retries, so a call that fails here has failed every
 * attempt of both.
 */
public final class RetryPolicy {
  // Not ThreadLocalRandom: environments restored from one SnapStart snapshot share its seed, and
  // throttled retries would then move in step across them.

  private static final Set<String> PASSING_ERROR_CODES =
      Set.of(
          "ProvisionedThroughputExceededException",
          "ThrottlingException",
          "Throttling",
          "ThrottledException",
          "RequestLimitExceeded",
          "RequestThrottled",
          "RequestThrottledException",
          "TooManyRequestsException",
          "TransactionConflictException",
          "TransactionInProgressException",
          "LimitExceededException",
          "KMSThrottlingException",
          // SQS on a queue encrypted with SSE-KMS: KMS throttled it (a 400 that passes).
          "KmsThrottled",
          "KMS.ThrottlingException",
          "InternalServerError",
          "InternalFailure",
          "ServiceUnavailable");

  /** Per-item codes (a transaction's cancellation reasons, a PartiQL batch's statement errors). */
  private static final Set<String> PASSING_ITEM_CODES =
      Set.of(
          "TransactionConflict",
          "ThrottlingError",
          "ProvisionedThroughputExceeded",
          "RequestLimitExceeded",
          "InternalServerError");

  private static final RetryPolicy DEFAULTS = builder().build();
  private static final RetryPolicy NONE = builder().maxAttempts(1).build();

  private final int maxAttempts;
  private final Duration baseDelay;
  private final Duration maxDelay;

  private RetryPolicy(Builder builder) {
    this.maxAttempts = builder.maxAttempts;
    this.baseDelay = builder.baseDelay;
    this.maxDelay = builder.maxDelay;
  }

  /** 8 attempts, backoff from 25 ms doubling up to 2 s (about 6 s in all at worst). */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /** One attempt: failures are thrown at once. */
  public static RetryPolicy none() {
    return NONE;
  }

  /** Starts a policy from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The number of attempts, the first included. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Runs {@code call}, retrying it while it fails for a passing reason and attempts remain.
   *
   * @return what the call returned
   * @throws RuntimeException the last failure: a failure that does not pass at once, or the last
   *     passing one when every attempt failed
   */
  public <T> T call(Supplier<T> call) {
    Objects.requireNonNull(call, "call");
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (RuntimeException e) {
        if (attempt >= maxAttempts || !isPassing(e)) {
          throw e;
        }
        pause(attempt);
      }
    }
  }

  /** Runs {@code call} like {@link #call(Supplier)}. */
  public void run(Runnable call) {
    call(
        () -> {
          call.run();
          return null;
        });
  }

  /**
   * Runs {@code attempt} on {@code work}, then again on what it left undone (a batch request's
   * unprocessed items, a PartiQL batch's throttled statements) while {@code done} says some is left
   * and attempts remain, backing off between attempts as {@link #call} does. DynamoDB leaves items
   * undone to throttle a batch, so they are retried like a throttled call.
   *
   * @param attempt sends the work and answers what is left of it
   * @return what is left: empty by {@code done} unless every attempt left some, which the caller
   *     reports as throttling
   */
  public <W> W untilDone(W work, UnaryOperator<W> attempt, Predicate<W> done) {
    Objects.requireNonNull(attempt, "attempt");
    W left = attempt.apply(work);
    for (int attempts = 1; !done.test(left) && attempts < maxAttempts; attempts++) {
      pause(attempts);
      left = attempt.apply(left);
    }
    return left;
  }

  /**
   * Sleeps before attempt {@code attempt + 1}: a random time up to {@code baseDelay * 2^(attempt -
   * 1)}, capped at {@code maxDelay}. Jitter keeps workers that were throttled together from
   * retrying together.
   */
  public void pause(int attempt) {
    new Backoff(baseDelay, maxDelay).pause(attempt);
  }

  /**
   * Whether {@code failure} is of a kind that passes: throttling, a 5xx, a transaction conflict, or
   * a client-side failure such as a broken connection.
   */
  public static boolean isPassing(Throwable failure) {
    if (failure instanceof TransactionCanceledException) {
      TransactionCanceledException cancelled = (TransactionCanceledException) failure;
      boolean anyPassing = false;
      for (CancellationReason reason : cancelled.cancellationReasons()) {
        String code = reason.code();
        if ("ConditionalCheckFailed".equals(code)) {
          return false;
        }
        anyPassing |= isPassingItemCode(code);
      }
      return anyPassing;
    }
    if (failure instanceof ProvisionedThroughputExceededException
        || failure instanceof RequestLimitExceededException
        || failure instanceof TransactionConflictException
        || failure instanceof InternalServerErrorException) {
      return true;
    }
    if (failure instanceof AwsServiceException) {
      AwsServiceException service = (AwsServiceException) failure;
      String code =
          service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorCode();
      return service.statusCode() >= 500
          || service.isThrottlingException()
          || (code != null && PASSING_ERROR_CODES.contains(code));
    }
    return failure instanceof SdkClientException;
  }

  /**
   * Whether an error code passes, for a call or for one entry of a batch (an SQS {@code
   * SendMessageBatch} entry throttled by KMS comes as a sender fault that passes).
   */
  public static boolean isPassingErrorCode(String code) {
    return code != null && PASSING_ERROR_CODES.contains(code);
  }

  /**
   * Whether a per-item error code passes: throttling, a transaction conflict or a server error
   * reported for one item of a batch ({@code CancellationReason.code()}, {@code
   * BatchStatementError.code()}), as opposed to a failed condition or a bad request.
   */
  public static boolean isPassingItemCode(String code) {
    return code != null && PASSING_ITEM_CODES.contains(code);
  }

  /**
   * What a caller can do about {@code failure} once the retries are spent: wait ({@link
   * StateKitException.Reason#UNAVAILABLE}) if it {@linkplain #isPassing passes}, else fix the
   * request ({@link StateKitException.Reason#INVALID_REQUEST}). Adapters use it to translate a
   * vendor exception into the kit's own.
   */
  public static StateKitException.Reason reasonOf(Throwable failure) {
    return isPassing(failure)
        ? StateKitException.Reason.UNAVAILABLE
        : StateKitException.Reason.INVALID_REQUEST;
  }

  @Override
  public String toString() {
    return "RetryPolicy[" + maxAttempts + " attempts, " + baseDelay + " up to " + maxDelay + "]";
  }

  /** Builds a {@link RetryPolicy}. */
  public static final class Builder {
    private int maxAttempts = 8;
    private Duration baseDelay = Duration.ofMillis(25);
    private Duration maxDelay = Duration.ofSeconds(2);

    private Builder() {}

    /**
     * The number of attempts, the first included.
     *
     * @throws IllegalArgumentException if under 1 or over 100
     */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1 || maxAttempts > 100) {
        throw new IllegalArgumentException(
            "maxAttempts counts the first attempt: use 1 (no retry) to 100, got " + maxAttempts);
      }
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * The backoff before the second attempt, doubled for each later one.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder baseDelay(Duration baseDelay) {
      this.baseDelay = nonNegative(baseDelay, "baseDelay");
      return this;
    }

    /**
     * The longest backoff.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxDelay(Duration maxDelay) {
      this.maxDelay = nonNegative(maxDelay, "maxDelay");
      return this;
    }

    /**
     * The policy.
     *
     * @throws IllegalStateException if the longest backoff is shorter than the first
     */
    public RetryPolicy build() {
      if (maxDelay.compareTo(baseDelay) < 0) {
        throw new IllegalStateException(
            "maxDelay ("
                + maxDelay
                + ") must be at least baseDelay ("
                + baseDelay
                + "); raise maxDelay or lower baseDelay");
      }
      return new RetryPolicy(this);
    }

    private static Duration nonNegative(Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isNegative()) {
        throw new IllegalArgumentException(name + " must be zero or more, got " + value);
      }
      return value;
    }
  }
}
