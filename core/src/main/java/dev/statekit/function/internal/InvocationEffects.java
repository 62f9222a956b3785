package dev.statekit.function.internal;

import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one successful invocation sent, in order per kind. State changes are not here: they are
 * threaded through the batch and read once at its end ({@link BatchRun#mutations()}). Not for
 * users.
 */
public final class InvocationEffects {
  private List<Message> messages;
  private List<DelayedAction> delayed;
  private List<EgressMessage> egress;

  InvocationEffects() {}

  void add(Message message) {
    if (messages == null) {
      messages = new ArrayList<>(2);
    }
    messages.add(message);
  }

  void add(DelayedAction action) {
    if (delayed == null) {
      delayed = new ArrayList<>(2);
    }
    delayed.add(action);
  }

  void add(EgressMessage message) {
    if (egress == null) {
      egress = new ArrayList<>(2);
    }
    egress.add(message);
  }

  /** Messages sent now. */
  public List<Message> messages() {
    return messages == null ? List.of() : Collections.unmodifiableList(messages);
  }

  /** Delayed messages and cancellations, in the order the function made them. */
  public List<DelayedAction> delayed() {
    return delayed == null ? List.of() : Collections.unmodifiableList(delayed);
  }

  /** Egress records. */
  public List<EgressMessage> egress() {
    return egress == null ? List.of() : Collections.unmodifiableList(egress);
  }

  @Override
  public String toString() {
    return "messages=" + messages() + " delayed=" + delayed() + " egress=" + egress();
  }
}
