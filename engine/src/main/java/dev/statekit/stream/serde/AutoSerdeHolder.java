package dev.statekit.stream.serde;

/** The default serde typed for internal use. */
public final class AutoSerdeHolder {
  public static final Serde<Object> AUTO = AutoSerde.INSTANCE;

  private AutoSerdeHolder() {}
}
