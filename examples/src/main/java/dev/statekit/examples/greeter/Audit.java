package dev.statekit.examples.greeter;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;

/** {@code example/audit}: counts the messages it gets in {@code total} and reports each one. */
public final class Audit implements StatefulFunction {
  /** The function type. */
  public static final TypeName TYPE = TypeName.of("example", "audit");

  /** Where the reports go. */
  public static final TypeName AUDITS = TypeName.of("example", "audits");

  /** How many messages this address has seen. */
  public static final ValueSpec<Long> TOTAL = ValueSpec.named("total").withLongType();

  @Override
  public void apply(Context context, Message message) {
    long total = context.storage().get(TOTAL).orElse(0L) + 1;
    context.storage().set(TOTAL, total);
    context.send(
        EgressMessageBuilder.forEgress(AUDITS)
            .withValue("total=" + total + " last=" + message.asUtf8String())
            .build());
  }
}
