package dev.statekit.function;

/**
 * A stateful function: reacts to one message addressed to one instance by reading and writing that
 * instance's persisted values through {@link Context#storage()} and sending messages, delayed
 * messages and egress records through the context.
 *
 * <p>Messages to one address arrive one at a time, in order. An instance registered with {@link
 * StatefulFunctionSpec.Builder#withFunction} serves every address concurrently, so keep per-address
 * data in the storage, never in fields.
 */
@FunctionalInterface
public interface StatefulFunction {
  /**
   * Handles one message. Throwing fails the message: none of its effects happen and the state stays
   * as it was before it.
   */
  void apply(Context context, Message message) throws Exception;
}
