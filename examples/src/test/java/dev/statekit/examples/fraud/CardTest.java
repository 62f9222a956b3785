package dev.statekit.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.testing.TestContext;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CardTest {
  private final Card card = new Card();
  private final TestContext context = TestContext.forTarget(Address.of(Card.TYPE, "4000-1"));

  @Test
  void theFirstAlertBlocksTheCardAndLaterOnesAreCounted() throws Exception {
    card.apply(context, context.message(Card.ALERT, alert(600_000, "6 transactions")));
    card.apply(context, context.message(Card.ALERT, alert(660_000, "7 transactions")));

    assertEquals(
        Optional.of(new CardBlock("6 transactions", 600_000, 2)),
        context.storage().get(Card.BLOCK));
    assertEquals(
        List.of("card 4000-1 blocked: 6 transactions"), context.egressStrings(Card.BLOCKED_CARDS));
  }

  @Test
  void unblockLiftsTheBlock() throws Exception {
    card.apply(context, context.message(Card.ALERT, alert(600_000, "too much")));

    card.apply(context, context.message("unblock:support"));

    assertEquals(Optional.empty(), context.storage().get(Card.BLOCK));
    assertEquals(
        "card 4000-1 unblocked by support", context.egressStrings(Card.BLOCKED_CARDS).get(1));
  }

  @Test
  void anythingElseIsRefused() throws Exception {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> card.apply(context, context.message("block")));
    assertTrue(e.getMessage().contains("unblock:<who>"), e.getMessage());
  }

  private static Alert alert(long end, String reason) {
    return new Alert("4000-1", end - 600_000, end, 6, 1_000, List.of("FR"), reason);
  }
}
