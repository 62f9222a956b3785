package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.state.internal.DecodedState;
import dev.statekit.stream.state.internal.DecodedStatesForTests;
import org.junit.jupiter.api.Test;

/**
 * A key's decoded state lent to a pass that fires its windows from the index stays as it is until
 * the pass gives it back: a batch that takes it meanwhile gets a view that copies before changing.
 */
class DecodedItemsLoanTest {
  private static final byte[] STATE = {1};

  private final DecodedItems items = new DecodedItems(10);

  @Test
  void aLoanLeavesTheStateForTheKeysNextBatch() {
    DecodedState original = keep();
    DecodedItems.Loan loan = items.lendState("a", 2, STATE);
    assertNotNull(loan);
    assertTrue(loan.view.borrowed());
    loan.giveBack();
    assertSame(original, items.takeState("a", 2, STATE));
  }

  @Test
  void aTakeWhileTheStateIsLentGetsAView() {
    DecodedState original = keep();
    DecodedItems.Loan loan = items.lendState("a", 2, STATE);
    DecodedState taken = items.takeState("a", 2, STATE);
    assertNotNull(taken);
    assertTrue(taken.borrowed(), "the taker could change the state the pass is reading");
    assertFalse(taken == original);
    loan.giveBack();
    loan.giveBack(); // twice counts once
  }

  @Test
  void aLoanIsOnlyOfTheItemItWasDecodedFrom() {
    keep();
    assertNull(items.lendState("a", 3, STATE));
    assertNull(items.lendState("a", 2, new byte[] {2}));
    assertNotNull(items.lendState("a", 2, new byte[] {1}));
  }

  @Test
  void aBorrowedStateIsNeverKeptAsAKeysOwn() {
    DecodedState original = keep();
    DecodedItems.Loan loan = items.lendState("a", 2, STATE);
    items.put("b", 1, STATE, loan.view, null, null);
    assertNull(items.takeState("b", 1, STATE));
    loan.giveBack();
    assertSame(original, items.takeState("a", 2, STATE));
  }

  private DecodedState keep() {
    DecodedState state = DecodedStatesForTests.some();
    items.put("a", 2, STATE, state, null, null);
    return state;
  }
}
