package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The feed keeps every event within Lambda's 6 MB whatever the records' partition keys hold. It
 * sized a key by its characters, but the event holds it as JSON-escaped UTF-8: 500 records whose
 * card is 2,300 CJK characters made one event of about 8 MB, which the serve refuses.
 */
class KinesisFeedBudgetTest {

  @Test
  void everyEventFitsLambdasPayloadLimitWhateverTheCardHolds() {
    String card = "卡".repeat(2_300);
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      records.add(
          ("{\"id\":\"t" + i + "\",\"card\":\"" + card + "\",\"amountCents\":1}")
              .getBytes(StandardCharsets.UTF_8));
    }

    List<KinesisFeed.Event> events = KinesisFeed.events(records, "transactions", "shardId-1");

    int fed = 0;
    for (KinesisFeed.Event event : events) {
      fed += event.records();
      assertTrue(
          event.payload().length <= LocalLambdaServer.MAX_PAYLOAD_BYTES,
          "an event of "
              + event.records()
              + " records takes "
              + event.payload().length
              + " bytes, over Lambda's "
              + LocalLambdaServer.MAX_PAYLOAD_BYTES);
    }
    assertEquals(500, fed);
  }
}
