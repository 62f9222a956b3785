package dev.statekit.runtime;

import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one invocation did, as an {@link InvocationObserver} sees it. Immutable.
 *
 * @param time when its outcome was settled (the runtime's clock)
 * @param address the address it ran on
 * @param source where its message came from
 * @param caller the sending function's address ({@link Source#FUNCTION}), the address that set the
 *     delayed message ({@link Source#DELAYED}), or null for an ingress message
 * @param message the message in (its target is {@code address})
 * @param stateBefore the address's values before it ran, by name (absent values left out)
 * @param stateAfter its values after it ran; the same as before when it failed
 * @param sent the messages it sent to functions, in order
 * @param delayed the delayed messages it set, in order
 * @param cancelled the cancellation tokens of the delayed messages it cancelled
 * @param egress the egress records it sent, in order
 * @param outcome what became of it
 * @param error why it failed or was dead-lettered, or null when applied
 * @param attempt how many times its message was received (1 for a first delivery)
 * @param traceId the trace id its message carries, or null when it carries none
 */
public record ObservedInvocation(
    Instant time,
    Address address,
    Source source,
    Address caller,
    Message message,
    Map<String, Value> stateBefore,
    Map<String, Value> stateAfter,
    List<Message> sent,
    List<DelayedMessage> delayed,
    List<String> cancelled,
    List<EgressMessage> egress,
    Outcome outcome,
    String error,
    int attempt,
    String traceId) {
  /** Copies the collections. */
  public ObservedInvocation {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(outcome, "outcome");
    stateBefore = Map.copyOf(stateBefore);
    stateAfter = Map.copyOf(stateAfter);
    sent = List.copyOf(sent);
    delayed = List.copyOf(delayed);
    cancelled = List.copyOf(cancelled);
    egress = List.copyOf(egress);
  }

  /** Where an invocation's message came from. */
  public enum Source {
    /** From outside: the ingress queue or a direct invoke. */
    INGRESS,
    /** Sent by another function (or the same one). */
    FUNCTION,
    /** A delayed message, fired by its timer. */
    DELAYED
  }

  /** What became of an invocation. */
  public enum Outcome {
    /** Its state changes and messages were committed. */
    APPLIED,
    /** It failed on its last attempt and went to the dead-letter queue with its error. */
    DEAD_LETTERED,
    /** It failed; nothing of it was kept and its message comes again. */
    FAILED
  }

  /**
   * A stored value: its type's name and its bytes (a copy; decode them with the type the function
   * declares).
   *
   * @param typeName the value's type, e.g. {@code io.statefun.types/int}
   * @param bytes the value as stored
   */
  public record Value(String typeName, byte[] bytes) {
    /** Copies the bytes. */
    public Value {
      Objects.requireNonNull(typeName, "typeName");
      bytes = bytes.clone();
    }

    /** A copy of the bytes. */
    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Value v
          && typeName.equals(v.typeName)
          && Arrays.equals(bytes, v.bytes);
    }

    @Override
    public int hashCode() {
      return 31 * typeName.hashCode() + Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return typeName + " (" + bytes.length + " bytes)";
    }
  }
}
