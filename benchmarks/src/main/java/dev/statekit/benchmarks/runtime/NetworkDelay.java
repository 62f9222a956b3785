package dev.statekit.benchmarks.runtime;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Adds a fixed delay to every request, as the network between Lambda and DynamoDB or SQS does (a
 * few milliseconds in one region). The embedded servers answer in well under a millisecond, so
 * without it requests that a batch sends together would rarely be in flight together and the
 * round-trip count would measure thread scheduling instead of the design. Registered after the
 * {@code CostMeter}, so the delay falls inside each measured request.
 */
public final class NetworkDelay implements ExecutionInterceptor {
  private final long millis;

  public NetworkDelay(long millis) {
    this.millis = millis;
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
