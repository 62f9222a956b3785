package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.event.BatchOutcome;
import dev.statekit.event.ChangeRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DynamoDB returns and streams a number as plain decimal digits, never with an exponent: 1e100 as
 * "1" and 100 zeros, 1.00000000000000007629769841092E+50 as 51 digits. It stores 38 significant
 * digits from 1E-130 to under 1E+126, so an image may hold a number of up to 133 characters, and
 * that is what the reader checks. Before, it refused any number past 40 integer digits or 64
 * characters: the whole event (every record of the batch) was malformed on every retry, and the
 * stream's shard stalled until Lambda gave the batch up.
 */
class DynamoDbNumbersAsStoredTest {
  private final List<ChangeRecord> seen = new ArrayList<>();
  private final EntryPoint entry =
      EntryPoint.builder()
          .dynamoDbStream(
              "orders",
              records -> {
                seen.addAll(records);
                return BatchOutcome.allSucceeded();
              })
          .build();

  private byte[] eventWith(String number) {
    String event = new String(Events.dynamoDb("orders"));
    return utf8(event.replace("\"n\":{\"N\":\"2\"}", "\"n\":{\"N\":\"" + number + "\"}"));
  }

  @Test
  void aNumberOf51DigitsAsDynamoDbStoresOneE50IsRead() {
    // What DynamoDB stored for "1.00000000000000007629769841092E+50" (boto/boto3#4636).
    String stored = "100000000000000007629769841092000000000000000000000";
    assertDoesNotThrow(() -> entry.invoke(eventWith(stored)));
    assertEquals(stored, seen.get(0).newImage().get("n").n());
  }

  @Test
  void oneE100AsDynamoDbReturnsItIsRead() {
    String stored = "1" + "0".repeat(100); // 1e100, as GetItem returns it (boto/boto3#2500)
    assertDoesNotThrow(() -> entry.invoke(eventWith(stored)));
    assertEquals(1, seen.size());
  }

  @Test
  void theSmallestPositiveNumberDynamoDbStoresIsRead() {
    String stored = "0." + "0".repeat(129) + "1"; // 1E-130, DynamoDB's smallest, in plain digits
    assertDoesNotThrow(() -> entry.invoke(eventWith(stored)));
    assertEquals(1, seen.size());
  }

  @Test
  void numbersDynamoDbCannotStoreAreStillRefused() {
    for (String number :
        List.of(
            "1" + "2".repeat(38), // 39 significant digits
            "1" + "0".repeat(126), // 1E+126
            "1E126",
            "0." + "0".repeat(130) + "1", // 1E-131
            "1E-131",
            "1E99999",
            "1" + "0".repeat(250), // past the length any storable number takes
            "1e",
            "--1")) {
      MalformedEventException e =
          assertThrows(MalformedEventException.class, () -> entry.invoke(eventWith(number)));
      assertTrue(e.getMessage().contains("is not a number DynamoDB can store"), e.getMessage());
    }
    assertDoesNotThrow(() -> entry.invoke(eventWith("-9." + "9".repeat(37) + "E+125")));
    assertDoesNotThrow(() -> entry.invoke(eventWith("0.000")));
  }
}
