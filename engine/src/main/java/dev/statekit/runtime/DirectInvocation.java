package dev.statekit.runtime;

import dev.statekit.function.Message;
import java.util.Objects;

/**
 * A message handed to the runtime by a direct invoke, with an optional idempotency key: a repeat
 * with the same key (a retried invoke) is recognised and applied once.
 *
 * @param message the message, with its target address
 * @param idempotencyKey the key, or {@code null} for a message that is applied each time it comes
 */
public record DirectInvocation(Message message, String idempotencyKey) {
  /** Checks the parts. */
  public DirectInvocation {
    Objects.requireNonNull(message, "message");
    if (idempotencyKey != null && (idempotencyKey.isEmpty() || idempotencyKey.length() > 256)) {
      throw new IllegalArgumentException(
          "An idempotency key has 1 to 256 characters, got " + idempotencyKey.length());
    }
  }

  /** A message without an idempotency key. */
  public static DirectInvocation of(Message message) {
    return new DirectInvocation(message, null);
  }

  /** A message with an idempotency key. */
  public static DirectInvocation of(Message message, String idempotencyKey) {
    return new DirectInvocation(message, Objects.requireNonNull(idempotencyKey, "idempotencyKey"));
  }
}
