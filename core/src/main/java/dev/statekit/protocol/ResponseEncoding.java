package dev.statekit.protocol;

import com.google.protobuf.UnsafeByteOperations;
import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Expiration;
import dev.statekit.function.Message;
import dev.statekit.function.ValueSpec;
import dev.statekit.function.internal.DelayedAction;
import dev.statekit.function.internal.InvocationEffects;
import dev.statekit.function.internal.StateMutation;
import dev.statekit.protocol.internal.wire.FromFunction;
import dev.statekit.protocol.internal.wire.FromFunction.DelayedInvocation;
import dev.statekit.protocol.internal.wire.FromFunction.ExpirationSpec;
import dev.statekit.protocol.internal.wire.FromFunction.IncompleteInvocationContext;
import dev.statekit.protocol.internal.wire.FromFunction.InvocationResponse;
import dev.statekit.protocol.internal.wire.FromFunction.PersistedValueMutation;
import dev.statekit.protocol.internal.wire.FromFunction.PersistedValueSpec;
import dev.statekit.protocol.internal.wire.TypedValue;
import java.util.List;

/** Builds the {@code FromFunction} answers from the engine's plain values. */
final class ResponseEncoding {
  private ResponseEncoding() {}

  static byte[] incomplete(List<ValueSpec<?>> missing) {
    IncompleteInvocationContext.Builder context = IncompleteInvocationContext.newBuilder();
    for (ValueSpec<?> spec : missing) {
      PersistedValueSpec.Builder value =
          PersistedValueSpec.newBuilder()
              .setStateName(spec.name())
              .setTypeTypename(spec.typeName().asString());
      Expiration expiration = spec.expiration();
      if (expiration.mode() != Expiration.Mode.NONE) {
        value.setExpirationSpec(
            ExpirationSpec.newBuilder()
                .setMode(
                    expiration.mode() == Expiration.Mode.AFTER_WRITE
                        ? ExpirationSpec.ExpireMode.AFTER_WRITE
                        : ExpirationSpec.ExpireMode.AFTER_INVOKE)
                .setExpireAfterMillis(expiration.duration().toMillis()));
      }
      context.addMissingValues(value);
    }
    return FromFunction.newBuilder().setIncompleteInvocationContext(context).build().toByteArray();
  }

  static void addEffects(InvocationResponse.Builder response, InvocationEffects effects) {
    for (Message message : effects.messages()) {
      response.addOutgoingMessages(
          FromFunction.Invocation.newBuilder()
              .setTarget(address(message.targetAddress()))
              .setArgument(typedValue(message.valueTypeName().asString(), message.rawValue())));
    }
    for (DelayedAction action : effects.delayed()) {
      response.addDelayedInvocations(delayed(action));
    }
    for (EgressMessage egress : effects.egress()) {
      response.addOutgoingEgresses(
          FromFunction.EgressMessage.newBuilder()
              .setEgressNamespace(egress.targetEgress().namespace())
              .setEgressType(egress.targetEgress().name())
              .setArgument(typedValue(egress.valueTypeName().asString(), egress.rawValue())));
    }
  }

  static byte[] result(InvocationResponse.Builder response, List<StateMutation> mutations) {
    for (StateMutation mutation : mutations) {
      PersistedValueMutation.Builder out =
          PersistedValueMutation.newBuilder().setStateName(mutation.stateName());
      if (mutation.isDelete()) {
        out.setMutationType(PersistedValueMutation.MutationType.DELETE);
      } else {
        out.setMutationType(PersistedValueMutation.MutationType.MODIFY)
            .setStateValue(typedValue(mutation.value().typeName(), mutation.value().value()));
      }
      response.addStateMutations(out);
    }
    return FromFunction.newBuilder().setInvocationResult(response).build().toByteArray();
  }

  private static DelayedInvocation.Builder delayed(DelayedAction action) {
    if (action.isCancellation()) {
      return DelayedInvocation.newBuilder()
          .setIsCancellationRequest(true)
          .setCancellationToken(action.cancelledToken());
    }
    DelayedMessage delayed = action.message();
    Message message = delayed.message();
    DelayedInvocation.Builder out =
        DelayedInvocation.newBuilder()
            .setDelayInMs(delayed.delay().toMillis())
            .setTarget(address(message.targetAddress()))
            .setArgument(typedValue(message.valueTypeName().asString(), message.rawValue()));
    delayed.cancellationToken().ifPresent(out::setCancellationToken);
    return out;
  }

  private static dev.statekit.protocol.internal.wire.Address address(Address address) {
    return dev.statekit.protocol.internal.wire.Address.newBuilder()
        .setNamespace(address.type().namespace())
        .setType(address.type().name())
        .setId(address.id())
        .build();
  }

  private static TypedValue typedValue(String typeName, byte[] value) {
    return TypedValue.newBuilder()
        .setTypename(typeName)
        .setHasValue(true)
        .setValue(UnsafeByteOperations.unsafeWrap(value))
        .build();
  }
}
