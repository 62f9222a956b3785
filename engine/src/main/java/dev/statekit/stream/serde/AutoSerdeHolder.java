package dev.statekit.stream.internal;

import dev.statekit.stream.Serde;

/** The default serde typed for internal use. */
final class AutoSerdeHolder {
  static final Serde<Object> AUTO = AutoSerde.INSTANCE;

  private AutoSerdeHolder() {}
}
