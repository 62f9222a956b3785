package dev.statekit.protocol;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.statefun.sdk.java.slice.Slice;
import org.apache.flink.statefun.sdk.java.types.Type;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.Address;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Requests built and answers read with the generated classes of statefun-sdk-java, an independent
 * implementation of the protocol, so the tests never check StateKit against itself.
 */
public final class PeerWire {
  private PeerWire() {}

  /** A request builder for {@code namespace/type/id}. */
  public static Request request(String namespace, String type, String id) {
    return new Request(address(namespace, type, id));
  }

  public static Address address(String namespace, String type, String id) {
    return Address.newBuilder().setNamespace(namespace).setType(type).setId(id).build();
  }

  public static <T> TypedValue typed(Type<T> type, T value) {
    Slice bytes = type.typeSerializer().serialize(value);
    return TypedValue.newBuilder()
        .setTypename(type.typeName().asTypeNameString())
        .setHasValue(true)
        .setValue(ByteString.copyFrom(bytes.toByteArray()))
        .build();
  }

  public static TypedValue string(String value) {
    return typed(Types.stringType(), value);
  }

  public static TypedValue integer(int value) {
    return typed(Types.integerType(), value);
  }

  public static TypedValue longValue(long value) {
    return typed(Types.longType(), value);
  }

  public static FromFunction parse(byte[] fromFunction) {
    try {
      return FromFunction.parseFrom(fromFunction);
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError("StateKit answered bytes the peer can't parse", e);
    }
  }

  public static <T> T value(Type<T> type, TypedValue value) {
    return type.typeSerializer()
        .deserialize(
            org.apache.flink.statefun.sdk.java.slice.Slices.wrap(value.getValue().toByteArray()));
  }

  /** Builds a {@code ToFunction}. */
  public static final class Request {
    private final ToFunction.InvocationBatchRequest.Builder batch;
    private final List<ToFunction.Invocation> invocations = new ArrayList<>();

    private Request(Address target) {
      this.batch = ToFunction.InvocationBatchRequest.newBuilder().setTarget(target);
    }

    /** A state the runtime knows, without a value. */
    public Request state(String name) {
      batch.addState(ToFunction.PersistedValue.newBuilder().setStateName(name));
      return this;
    }

    /** A state with a value. */
    public Request state(String name, TypedValue value) {
      batch.addState(
          ToFunction.PersistedValue.newBuilder().setStateName(name).setStateValue(value));
      return this;
    }

    /** A message from an ingress. */
    public Request message(TypedValue argument) {
      invocations.add(ToFunction.Invocation.newBuilder().setArgument(argument).build());
      return this;
    }

    /** A message from another function. */
    public Request message(Address caller, TypedValue argument) {
      invocations.add(
          ToFunction.Invocation.newBuilder().setCaller(caller).setArgument(argument).build());
      return this;
    }

    public ToFunction build() {
      return ToFunction.newBuilder()
          .setInvocation(batch.clone().addAllInvocations(invocations))
          .build();
    }

    public byte[] bytes() {
      return build().toByteArray();
    }
  }
}
