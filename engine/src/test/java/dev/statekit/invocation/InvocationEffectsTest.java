package dev.statekit.invocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.function.EgressMessage;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.types.TypeName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The first effect of a kind is held apart from the rest; every view must still see all, in order.
 */
class InvocationEffectsTest {
  private static final TypeName OUT = TypeName.of("test", "out");

  @Test
  void noneOneAndManyAreSeenInOrderThroughListAndIndex() {
    for (int count : new int[] {0, 1, 2, 3, 9}) {
      InvocationEffects effects = new InvocationEffects();
      List<EgressMessage> sent = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        EgressMessage egress = EgressMessageBuilder.forEgress(OUT).withValue("e" + i).build();
        sent.add(egress);
        effects.add(egress);
      }
      assertEquals(count, effects.egressCount());
      assertEquals(sent, effects.egress());
      for (int i = 0; i < count; i++) {
        assertEquals(sent.get(i), effects.egress(i));
      }
      int past = count;
      assertThrows(IndexOutOfBoundsException.class, () -> effects.egress(past));
      assertThrows(UnsupportedOperationException.class, () -> effects.egress().clear());
      assertEquals(0, effects.messageCount());
      assertEquals(List.of(), effects.messages());
      assertEquals(0, effects.delayedCount());
      assertThrows(IndexOutOfBoundsException.class, () -> effects.delayed(0));
    }
  }
}
