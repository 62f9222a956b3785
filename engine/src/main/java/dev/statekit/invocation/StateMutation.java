package dev.statekit.invocation;

/**
 * The net change a batch made to one persisted value: its new value, or its removal. Not for users.
 */
public final class StateMutation {
  private final String stateName;
  private final TypedValue value;

  private StateMutation(String stateName, TypedValue value) {
    this.stateName = stateName;
    this.value = value;
  }

  /** The value was written; {@code value} is the last one written. */
  public static StateMutation modify(String stateName, TypedValue value) {
    return new StateMutation(stateName, value);
  }

  /** The value was removed. */
  public static StateMutation delete(String stateName) {
    return new StateMutation(stateName, null);
  }

  /** The state name. */
  public String stateName() {
    return stateName;
  }

  /** Whether the value was removed. */
  public boolean isDelete() {
    return value == null;
  }

  /** The new value; {@code null} for a removal. */
  public TypedValue value() {
    return value;
  }

  @Override
  public String toString() {
    return value == null ? "DELETE " + stateName : "MODIFY " + stateName + " = " + value;
  }
}
