package dev.statekit.application;

import dev.statekit.types.TypeName;
import java.util.Objects;

/**
 * An egress whose records go to an SQS queue.
 *
 * @param egress the egress's type name
 * @param queueVariable the variable holding the queue's URL
 * @param meaning what the queue is, for the message when the variable is missing
 */
public record EgressQueue(TypeName egress, String queueVariable, String meaning) {
  /** Checks the parts. */
  public EgressQueue {
    Objects.requireNonNull(egress, "egress");
    Objects.requireNonNull(queueVariable, "queueVariable");
    Objects.requireNonNull(meaning, "meaning");
    if (!queueVariable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException(
          "A queue variable is an environment variable name, got '" + queueVariable + "'");
    }
  }
}
