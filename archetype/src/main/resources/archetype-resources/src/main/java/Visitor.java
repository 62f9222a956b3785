package ${package};

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.StatefulFunction;
import dev.statekit.types.TypeName;
import dev.statekit.function.ValueSpec;

/**
 * {@code app/visitor}: each message is a page the visitor (the address id) opened. Counts the
 * visits in {@code visits} and greets the visitor on the {@code app/greetings} egress.
 */
public final class Visitor implements StatefulFunction {
  /** The function type. */
  public static final TypeName TYPE = TypeName.of("app", "visitor");

  /** Where the greetings go. */
  public static final TypeName GREETINGS = TypeName.of("app", "greetings");

  /** How many pages this visitor opened. */
  public static final ValueSpec<Integer> VISITS = ValueSpec.named("visits").withIntType();

  @Override
  public void apply(Context context, Message message) {
    String page = message.asUtf8String();
    if (page.isBlank()) {
      throw new IllegalArgumentException("A visit names the page opened, such as /home");
    }
    int visits = context.storage().get(VISITS).orElse(0) + 1;
    context.storage().set(VISITS, visits);
    context.send(
        EgressMessageBuilder.forEgress(GREETINGS)
            .withValue(
                "Welcome to " + page + ", " + context.self().id() + " (visit " + visits + ")")
            .build());
  }
}
