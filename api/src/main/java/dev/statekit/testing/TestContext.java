package dev.statekit.testing;

import dev.statekit.function.Address;
import dev.statekit.function.AddressScopedStorage;
import dev.statekit.function.Context;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Context} for unit tests: it records every side effect and keeps state in memory, so a
 * function can be tested with one line per assertion:
 *
 * <pre>{@code
 * TestContext context = TestContext.forTarget(Address.of(GREETER, "Ada"));
 * context.storage().set(SEEN, 2);
 * new Greeter().apply(context, context.message("hi"));
 * assertEquals(Optional.of(3), context.storage().get(SEEN));
 * assertEquals(List.of("Hello Ada! I have seen you 3 times."), context.egressStrings(GREETS));
 * }</pre>
 *
 * Effects accumulate over several invocations until {@link #clearEffects()}.
 */
public final class TestContext implements Context {
  private final Address self;
  private final TestStorage storage = new TestStorage();
  private Address caller;
  private final List<Message> sent = new ArrayList<>();
  private final List<DelayedMessage> delayed = new ArrayList<>();
  private final List<String> cancelled = new ArrayList<>();
  private final List<EgressMessage> egress = new ArrayList<>();

  private TestContext(Address self) {
    this.self = self;
  }

  /** A context for a function running on {@code self}, with empty state and no caller. */
  public static TestContext forTarget(Address self) {
    return new TestContext(Objects.requireNonNull(self, "self"));
  }

  /** Sets the caller the function sees ({@code null}: a message from an ingress). */
  public TestContext withCaller(Address caller) {
    this.caller = caller;
    return this;
  }

  /** A string message to {@link #self()}, to hand to the function under test. */
  public Message message(String value) {
    return MessageBuilder.forAddress(self).withValue(value).build();
  }

  /** A message of {@code type} to {@link #self()}, to hand to the function under test. */
  public <T> Message message(Type<T> type, T value) {
    return MessageBuilder.forAddress(self).withCustomType(type, value).build();
  }

  @Override
  public Address self() {
    return self;
  }

  @Override
  public Optional<Address> caller() {
    return Optional.ofNullable(caller);
  }

  /** The state; set values before invoking, read them after. */
  @Override
  public AddressScopedStorage storage() {
    return storage;
  }

  @Override
  public void send(Message message) {
    sent.add(Objects.requireNonNull(message, "message"));
  }

  @Override
  public void sendAfter(Duration delay, Message message) {
    delayed.add(DelayedMessage.of(delay, message, null));
  }

  @Override
  public void sendAfter(Duration delay, Message message, String cancellationToken) {
    Objects.requireNonNull(cancellationToken, "cancellationToken");
    delayed.add(DelayedMessage.of(delay, message, cancellationToken));
  }

  @Override
  public void cancelDelayedMessage(String cancellationToken) {
    cancelled.add(DelayedMessage.requireToken(cancellationToken));
  }

  @Override
  public void send(EgressMessage message) {
    egress.add(Objects.requireNonNull(message, "message"));
  }

  /** Messages sent now, in order. */
  public List<Message> sentMessages() {
    return Collections.unmodifiableList(sent);
  }

  /** Delayed messages sent, in order, cancelled ones included. */
  public List<DelayedMessage> delayedMessages() {
    return Collections.unmodifiableList(delayed);
  }

  /** Delayed messages whose token (if any) has not been cancelled since they were sent. */
  public List<DelayedMessage> pendingDelayedMessages() {
    List<DelayedMessage> pending = new ArrayList<>(delayed);
    for (String token : cancelled) {
      pending.removeIf(m -> m.cancellationToken().filter(token::equals).isPresent());
    }
    return pending;
  }

  /** Tokens cancelled, in order. */
  public List<String> cancelledTokens() {
    return Collections.unmodifiableList(cancelled);
  }

  /** Egress records, in order. */
  public List<EgressMessage> egressMessages() {
    return Collections.unmodifiableList(egress);
  }

  /** The string values of the records sent to {@code egress}, in order. */
  public List<String> egressStrings(TypeName egressName) {
    List<String> values = new ArrayList<>();
    for (EgressMessage message : egress) {
      if (message.targetEgress().equals(egressName)) {
        values.add(message.asUtf8String());
      }
    }
    return values;
  }

  /** The string values of the messages sent now to {@code target}, in order. */
  public List<String> sentStrings(Address target) {
    List<String> values = new ArrayList<>();
    for (Message message : sent) {
      if (message.targetAddress().equals(target)) {
        values.add(message.asUtf8String());
      }
    }
    return values;
  }

  /** Forgets the recorded effects (not the state), e.g. between two invocations. */
  public void clearEffects() {
    sent.clear();
    delayed.clear();
    cancelled.clear();
    egress.clear();
  }
}
