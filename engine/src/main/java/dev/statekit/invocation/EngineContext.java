package dev.statekit.invocation;

import dev.statekit.function.Address;
import dev.statekit.function.AddressScopedStorage;
import dev.statekit.function.Context;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** The context of the running invocation; refuses use once the invocation has returned. */
final class EngineContext implements Context {
  private final Address self;
  private final CellStorage storage;
  private Address caller;
  private InvocationEffects effects;

  EngineContext(Address self, CellStorage storage) {
    this.self = self;
    this.storage = storage;
  }

  void begin(Address caller, InvocationEffects effects) {
    this.caller = caller;
    this.effects = effects;
  }

  void end() {
    this.caller = null;
    this.effects = null;
  }

  @Override
  public Address self() {
    return self;
  }

  @Override
  public Optional<Address> caller() {
    return Optional.ofNullable(caller);
  }

  @Override
  public AddressScopedStorage storage() {
    return storage;
  }

  @Override
  public void send(Message message) {
    effects().add(Objects.requireNonNull(message, "message"));
  }

  @Override
  public void sendAfter(Duration delay, Message message) {
    effects().add(DelayedAction.send(DelayedMessage.of(delay, message, null)));
  }

  @Override
  public void sendAfter(Duration delay, Message message, String cancellationToken) {
    Objects.requireNonNull(cancellationToken, "cancellationToken");
    effects().add(DelayedAction.send(DelayedMessage.of(delay, message, cancellationToken)));
  }

  @Override
  public void cancelDelayedMessage(String cancellationToken) {
    effects().add(DelayedAction.cancel(DelayedMessage.requireToken(cancellationToken)));
  }

  @Override
  public void send(EgressMessage message) {
    effects().add(Objects.requireNonNull(message, "message"));
  }

  private InvocationEffects effects() {
    InvocationEffects current = effects;
    if (current == null) {
      throw new IllegalStateException(
          "The context of "
              + self
              + " was used after its invocation returned; send everything before returning");
    }
    return current;
  }
}
