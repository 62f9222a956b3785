package dev.statekit.invocation;

import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one successful invocation sent, in order per kind. State changes are not here: they are
 * threaded through the batch and read once at its end ({@link AddressRun#mutations()}). Not for
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

  /** How many messages were sent now; with {@link #message(int)}, reads without allocating. */
  public int messageCount() {
    return messages == null ? 0 : messages.size();
  }

  /** The {@code index}th message sent now. */
  public Message message(int index) {
    return messages.get(index);
  }

  /** How many delayed messages and cancellations were made. */
  public int delayedCount() {
    return delayed == null ? 0 : delayed.size();
  }

  /** The {@code index}th delayed message or cancellation. */
  public DelayedAction delayed(int index) {
    return delayed.get(index);
  }

  /** How many egress records were sent. */
  public int egressCount() {
    return egress == null ? 0 : egress.size();
  }

  /** The {@code index}th egress record. */
  public EgressMessage egress(int index) {
    return egress.get(index);
  }

  @Override
  public String toString() {
    return "messages=" + messages() + " delayed=" + delayed() + " egress=" + egress();
  }
}
