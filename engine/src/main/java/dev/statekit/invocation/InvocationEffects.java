package dev.statekit.invocation;

import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import dev.statekit.function.Reply;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one successful invocation sent, in order per kind. State changes are not here: they are
 * threaded through the batch and read once at its end ({@link AddressRun#mutations()}). Not for
 * users.
 */
public final class InvocationEffects {
  // Most invocations send at most one of each kind: the first is held in a field and a list is
  // only made for the second, which saves a list and its array per invocation on the hot path.
  private Message firstMessage;
  private List<Message> messages;
  private DelayedAction firstDelayed;
  private List<DelayedAction> delayed;
  private EgressMessage firstEgress;
  private List<EgressMessage> egress;
  private EgressMessage reply;

  InvocationEffects() {}

  void add(Message message) {
    if (firstMessage == null) {
      firstMessage = message;
      return;
    }
    if (messages == null) {
      messages = new ArrayList<>(4);
      messages.add(firstMessage);
    }
    messages.add(message);
  }

  void add(DelayedAction action) {
    if (firstDelayed == null) {
      firstDelayed = action;
      return;
    }
    if (delayed == null) {
      delayed = new ArrayList<>(4);
      delayed.add(firstDelayed);
    }
    delayed.add(action);
  }

  void add(EgressMessage message) {
    if (Reply.isReply(message.targetEgress())) {
      // A call's answer, not a record for a sink: the runtime takes it, the protocol drops it.
      reply = message;
      return;
    }
    if (firstEgress == null) {
      firstEgress = message;
      return;
    }
    if (egress == null) {
      egress = new ArrayList<>(4);
      egress.add(firstEgress);
    }
    egress.add(message);
  }

  /** The messages sent, in order. */
  public List<Message> messages() {
    return view(firstMessage, messages);
  }

  /** The delayed messages sent and cancellations, in order. */
  public List<DelayedAction> delayed() {
    return view(firstDelayed, delayed);
  }

  /** The egress records sent, in order. */
  public List<EgressMessage> egress() {
    return view(firstEgress, egress);
  }

  /**
   * The last record sent to the reserved egress {@link Reply#EGRESS} (a call's reply), or {@code
   * null}; it is not among {@link #egress()}.
   */
  public EgressMessage reply() {
    return reply;
  }

  /** How many messages were sent. */
  public int messageCount() {
    return messages != null ? messages.size() : firstMessage == null ? 0 : 1;
  }

  /** The {@code index}th message sent. */
  public Message message(int index) {
    return messages != null ? messages.get(index) : only(firstMessage, index);
  }

  /** How many delayed messages and cancellations were sent. */
  public int delayedCount() {
    return delayed != null ? delayed.size() : firstDelayed == null ? 0 : 1;
  }

  /** The {@code index}th delayed message or cancellation. */
  public DelayedAction delayed(int index) {
    return delayed != null ? delayed.get(index) : only(firstDelayed, index);
  }

  /** How many egress records were sent. */
  public int egressCount() {
    return egress != null ? egress.size() : firstEgress == null ? 0 : 1;
  }

  /** The {@code index}th egress record sent. */
  public EgressMessage egress(int index) {
    return egress != null ? egress.get(index) : only(firstEgress, index);
  }

  private static <T> List<T> view(T first, List<T> all) {
    if (all != null) {
      return Collections.unmodifiableList(all);
    }
    return first == null ? List.of() : List.of(first);
  }

  private static <T> T only(T first, int index) {
    if (first == null || index != 0) {
      throw new IndexOutOfBoundsException("Index " + index + " out of bounds");
    }
    return first;
  }

  @Override
  public String toString() {
    return "messages=" + messages() + " delayed=" + delayed() + " egress=" + egress();
  }
}
