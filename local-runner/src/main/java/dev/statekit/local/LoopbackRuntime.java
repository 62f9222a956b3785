package dev.statekit.local;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.protocol.internal.wire.Address;
import dev.statekit.protocol.internal.wire.FromFunction;
import dev.statekit.protocol.internal.wire.ToFunction;
import dev.statekit.protocol.internal.wire.TypedValue;
import dev.statekit.types.Types;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays the StateFun runtime's part in process, to show the protocol: keeps each address's state,
 * sends {@code ToFunction} batches through the handler, registers the state specs an {@code
 * IncompleteInvocationContext} asks for and resends, applies the mutations and delivers outgoing
 * messages. Delayed messages and cancellations are printed, not scheduled.
 */
final class LoopbackRuntime {
  private final RequestReplyHandler handler;
  private final PrintStream out;
  private final Map<String, List<String>> knownStates = new HashMap<>();
  private final Map<String, Map<String, TypedValue>> state = new HashMap<>();
  private final Deque<ToFunction.Invocation> pendingInvocations = new ArrayDeque<>();
  private final Deque<Address> pendingTargets = new ArrayDeque<>();
  private int requests;

  LoopbackRuntime(RequestReplyHandler handler, PrintStream out) {
    this.handler = handler;
    this.out = out;
  }

  /** Queues a string message from an ingress. */
  void ingress(String namespace, String type, String id, String value) {
    pendingTargets.add(
        Address.newBuilder().setNamespace(namespace).setType(type).setId(id).build());
    pendingInvocations.add(ToFunction.Invocation.newBuilder().setArgument(string(value)).build());
  }

  /** Delivers queued messages, batching those for the same address, until none is left. */
  void runUntilIdle() throws InvalidProtocolBufferException {
    while (!pendingTargets.isEmpty()) {
      Address target = pendingTargets.peek();
      List<ToFunction.Invocation> batch = new ArrayList<>();
      while (!pendingTargets.isEmpty() && pendingTargets.peek().equals(target)) {
        pendingTargets.poll();
        batch.add(pendingInvocations.poll());
      }
      deliver(target, batch);
    }
  }

  private void deliver(Address target, List<ToFunction.Invocation> batch)
      throws InvalidProtocolBufferException {
    String function = target.getNamespace() + "/" + target.getType();
    String address = function + "/" + target.getId();
    out.println("   -> " + address + ": batch of " + batch.size() + " " + describe(batch));
    FromFunction answer = FromFunction.parseFrom(handler.invoke(request(target, batch)));
    if (answer.hasIncompleteInvocationContext()) {
      List<String> names = knownStates.computeIfAbsent(function, f -> new ArrayList<>());
      for (FromFunction.PersistedValueSpec spec :
          answer.getIncompleteInvocationContext().getMissingValuesList()) {
        names.add(spec.getStateName());
        out.println(
            "      function declares state '"
                + spec.getStateName()
                + "' ("
                + spec.getTypeTypename()
                + (spec.hasExpirationSpec()
                    ? ", "
                        + spec.getExpirationSpec().getMode()
                        + " "
                        + spec.getExpirationSpec().getExpireAfterMillis()
                        + " ms"
                    : "")
                + "): registered, batch resent");
      }
      answer = FromFunction.parseFrom(handler.invoke(request(target, batch)));
    }
    apply(target, answer.getInvocationResult());
  }

  private void apply(Address sender, FromFunction.InvocationResponse result) {
    String address = show(sender);
    Map<String, TypedValue> values = state.computeIfAbsent(address, a -> new LinkedHashMap<>());
    for (FromFunction.EgressMessage egress : result.getOutgoingEgressesList()) {
      out.println(
          "      egress "
              + egress.getEgressNamespace()
              + "/"
              + egress.getEgressType()
              + ": "
              + show(egress.getArgument()));
    }
    for (FromFunction.Invocation message : result.getOutgoingMessagesList()) {
      Address to = message.getTarget();
      out.println("      message to " + show(to) + ": " + show(message.getArgument()));
      pendingTargets.add(to);
      pendingInvocations.add(
          ToFunction.Invocation.newBuilder()
              .setCaller(sender)
              .setArgument(message.getArgument())
              .build());
    }
    for (FromFunction.DelayedInvocation delayed : result.getDelayedInvocationsList()) {
      if (delayed.getIsCancellationRequest()) {
        out.println("      cancel delayed message with token " + delayed.getCancellationToken());
      } else {
        out.println(
            "      delayed message to "
                + show(delayed.getTarget())
                + " in "
                + delayed.getDelayInMs()
                + " ms"
                + (delayed.getCancellationToken().isEmpty()
                    ? ""
                    : " (token " + delayed.getCancellationToken() + ")")
                + ": "
                + show(delayed.getArgument()));
      }
    }
    for (FromFunction.PersistedValueMutation mutation : result.getStateMutationsList()) {
      if (mutation.getMutationType() == FromFunction.PersistedValueMutation.MutationType.DELETE) {
        values.remove(mutation.getStateName());
        out.println("      state " + mutation.getStateName() + " deleted");
      } else {
        values.put(mutation.getStateName(), mutation.getStateValue());
        out.println(
            "      state " + mutation.getStateName() + " = " + show(mutation.getStateValue()));
      }
    }
  }

  /** How many requests were sent, resends included. */
  int requests() {
    return requests;
  }

  private byte[] request(Address target, List<ToFunction.Invocation> batch) {
    requests++;
    String function = target.getNamespace() + "/" + target.getType();
    Map<String, TypedValue> values = state.getOrDefault(function + "/" + target.getId(), Map.of());
    ToFunction.InvocationBatchRequest.Builder request =
        ToFunction.InvocationBatchRequest.newBuilder().setTarget(target);
    for (String name : knownStates.getOrDefault(function, List.of())) {
      ToFunction.PersistedValue.Builder value =
          ToFunction.PersistedValue.newBuilder().setStateName(name);
      if (values.containsKey(name)) {
        value.setStateValue(values.get(name));
      }
      request.addState(value);
    }
    request.addAllInvocations(batch);
    return ToFunction.newBuilder().setInvocation(request).build().toByteArray();
  }

  private static String describe(List<ToFunction.Invocation> batch) {
    List<String> values = new ArrayList<>();
    for (ToFunction.Invocation invocation : batch) {
      values.add(show(invocation.getArgument()));
    }
    return values.toString();
  }

  private static TypedValue string(String value) {
    return TypedValue.newBuilder()
        .setTypename(Types.stringType().typeName().asString())
        .setHasValue(true)
        .setValue(ByteString.copyFrom(Types.stringType().serialize(value)))
        .build();
  }

  private static String show(Address address) {
    return address.getNamespace() + "/" + address.getType() + "/" + address.getId();
  }

  private static String show(TypedValue value) {
    byte[] bytes = value.getValue().toByteArray();
    switch (value.getTypename()) {
      case "io.statefun.types/string":
        return '"' + Types.stringType().deserialize(bytes) + '"';
      case "io.statefun.types/int":
        return String.valueOf(Types.integerType().deserialize(bytes));
      case "io.statefun.types/long":
        return String.valueOf(Types.longType().deserialize(bytes));
      default:
        return value.getTypename() + " (" + bytes.length + " bytes)";
    }
  }
}
