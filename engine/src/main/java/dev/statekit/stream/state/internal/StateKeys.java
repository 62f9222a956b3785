package dev.statekit.stream.state.internal;

import dev.statekit.stream.serde.Serde;
import java.util.Base64;

/**
 * How keys appear in state tables: string keys as themselves, others as base64url of their bytes.
 */
public final class StateKeys {
  private StateKeys() {}

  /** The table key of {@code key}. */
  public static String encode(Object key, Serde<Object> keySerde) {
    if (key instanceof String s) {
      return s;
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(keySerde.encode(key));
  }
}
