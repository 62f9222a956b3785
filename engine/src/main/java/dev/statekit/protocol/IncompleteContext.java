package dev.statekit.protocol;

import dev.statekit.function.Expiration;
import dev.statekit.function.ValueSpec;
import dev.statekit.protocol.internal.wire.FromFunction;
import dev.statekit.protocol.internal.wire.FromFunction.ExpirationSpec;
import dev.statekit.protocol.internal.wire.FromFunction.IncompleteInvocationContext;
import dev.statekit.protocol.internal.wire.FromFunction.PersistedValueSpec;
import java.util.List;

/**
 * The answer for a request that lacks declared state: every missing spec, so the runtime registers
 * them and resends. Rare (once per function type and runtime restart), so built with the generated
 * classes.
 */
final class IncompleteContext {
  private IncompleteContext() {}

  static byte[] answer(List<ValueSpec<?>> missing) {
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
}
