package dev.statekit.runtime.internal;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.StoreException;

/** Reads the runtime's bookkeeping out of a stored state. */
final class Outboxes {
  private Outboxes() {}

  /** The runtime data of {@code state}. */
  static RuntimeData data(AddressState state) {
    try {
      return RuntimeData.parseFrom(state.runtimeData());
    } catch (InvalidProtocolBufferException e) {
      throw new StoreException(
          StoreException.Reason.INVALID_REQUEST,
          "The runtime data of " + state.address() + " is unreadable: " + e.getMessage(),
          e);
    }
  }

  /** The outbox {@code state} holds, or {@code null}. */
  static PendingOutbox of(AddressState state) {
    if (state.outboxVersion() == 0) {
      return null;
    }
    RuntimeData data = data(state);
    return data.hasOutbox()
        ? new PendingOutbox(state.address(), state.outboxVersion(), data.getOutbox())
        : null;
  }
}
