package dev.statekit.event;

/**
 * Applies direct invokes carrying JSON ingress envelopes (one object, or an array of them) and
 * answers with JSON; the self-hosted function runtime is one.
 */
@FunctionalInterface
public interface EnvelopeConsumer {
  /**
   * Applies the envelopes in {@code json}.
   *
   * @return the answer's JSON bytes
   */
  byte[] invoke(byte[] json) throws Exception;
}
