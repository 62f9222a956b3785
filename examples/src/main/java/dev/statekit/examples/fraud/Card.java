package dev.statekit.examples.fraud;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;

/**
 * {@code fraud/card/<card>}: blocks the card on its first {@link Alert} and counts the alerts after
 * it (overlapping windows report one burst several times); a string message {@code unblock:<who>}
 * lifts the block. Blocks and unblocks go to the {@link #BLOCKED_CARDS} egress.
 */
public final class Card implements StatefulFunction {
  /** The function type. */
  public static final TypeName TYPE = TypeName.of("fraud", "card");

  /** An {@link Alert}, from the fraud check pipeline (JSON). */
  public static final Type<Alert> ALERT = Types.json(TypeName.of("fraud", "alert"), Alert.class);

  /** Blocks and unblocks, one line of text each. */
  public static final TypeName BLOCKED_CARDS = TypeName.of("fraud", "blocked-cards");

  /** The block, absent while the card is usable. */
  public static final ValueSpec<CardBlock> BLOCK =
      ValueSpec.named("block")
          .withCustomType(Types.json(TypeName.of("fraud", "card-block"), CardBlock.class));

  @Override
  public void apply(Context context, Message message) {
    String card = context.self().id();
    CardBlock block = context.storage().get(BLOCK).orElse(null);
    if (message.is(ALERT)) {
      Alert alert = message.as(ALERT);
      if (block == null) {
        context.storage().set(BLOCK, new CardBlock(alert.reason(), alert.windowEnd(), 1));
        report(context, "card " + card + " blocked: " + alert.reason());
      } else {
        context
            .storage()
            .set(BLOCK, new CardBlock(block.reason(), block.windowEnd(), block.alerts() + 1));
      }
    } else if (message.isUtf8String() && message.asUtf8String().startsWith("unblock:")) {
      if (block != null) {
        context.storage().remove(BLOCK);
        report(context, "card " + card + " unblocked by " + message.asUtf8String().substring(8));
      }
    } else {
      throw new IllegalArgumentException(
          "fraud/card takes a fraud/alert or the string unblock:<who>, not "
              + message.valueTypeName());
    }
  }

  private static void report(Context context, String text) {
    context.send(EgressMessageBuilder.forEgress(BLOCKED_CARDS).withValue(text).build());
  }
}
