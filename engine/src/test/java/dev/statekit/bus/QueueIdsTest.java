package dev.statekit.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import org.junit.jupiter.api.Test;

class QueueIdsTest {
  @Test
  void anAddressSqsTakesIsItsOwnGroup() {
    assertEquals(
        "example/greeter/ada",
        QueueIds.groupId(Address.of(TypeName.of("example", "greeter"), "ada")));
  }

  @Test
  void otherTextsAreHashedToAStableFittingId() {
    String spaced = QueueIds.fit("has a space");
    String long1 = QueueIds.fit("x".repeat(200));

    assertTrue(spaced.startsWith("h-") && spaced.length() <= 128, spaced);
    assertEquals(spaced, QueueIds.fit("has a space"));
    assertTrue(long1.length() <= 128);
    assertNotEquals(QueueIds.fit("é"), QueueIds.fit("e"));
  }
}
