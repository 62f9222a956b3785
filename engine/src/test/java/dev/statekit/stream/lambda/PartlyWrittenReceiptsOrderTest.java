package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.testing.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A FIFO batch's receipts are written in BatchWriteItem requests, which DynamoDB applies item by
 * item (under throttling some come back as UnprocessedItems), and an invocation may die while it
 * still retries the rest. So a retry of the batch can find a later message of a group receipted and
 * an earlier one of the same group only pending in its key. The group's results must still go out
 * in its order: the earlier message's count before the later one's.
 */
class PartlyWrittenReceiptsOrderTest {
  private static final String QUEUE = "orders.fifo";

  private final ManualClock clock = new ManualClock(1_000_000);

  private static SourceBatch fifo(String group, String... ids) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (String id : ids) {
      batch.add(
          id,
          1_000_000,
          id.getBytes(StandardCharsets.UTF_8),
          Map.of(SourceBatch.ORDER_GROUP, group));
    }
    return batch.build();
  }

  /**
   * A store whose first receipts write lands only the receipt of {@code landed}, then fails, as a
   * BatchWriteItem whose other items stay unprocessed until the invocation ends.
   */
  private static final class PartReceipts extends ForwardingBatchStore {
    private final String landed;
    private boolean failedOnce;

    PartReceipts(BatchStore delegate, String landed) {
      super(delegate);
      this.landed = landed;
    }

    @Override
    public void writeReceipts(
        String pipeline, String split, Map<String, byte[]> receipts, long expiresAt) {
      if (!failedOnce && receipts.containsKey(landed) && receipts.size() > 1) {
        failedOnce = true;
        Map<String, byte[]> part = new LinkedHashMap<>();
        part.put(landed, receipts.get(landed));
        super.writeReceipts(pipeline, split, part, expiresAt);
        throw new dev.statekit.stream.state.StateStoreException(
            dev.statekit.StateKitException.Reason.UNAVAILABLE,
            "BatchWriteItem left " + (receipts.size() - 1) + " item(s) unprocessed");
      }
      super.writeReceipts(pipeline, split, receipts, expiresAt);
    }
  }

  @Test
  void aGroupsResultsGoOutInItsOrderAfterItsReceiptsWereWrittenInPart() {
    InMemoryBatchStore memory = new InMemoryBatchStore(clock);
    BatchStore store = new PartReceipts(memory, "m2");
    List<String> delivered = new ArrayList<>();
    boolean[] down = {true};
    EgressSink sink =
        records -> {
          if (down[0]) {
            throw new IllegalStateException("sink unreachable");
          }
          for (EgressRecord r : records) {
            delivered.add(r.textOrBase64());
          }
        };
    BatchPipeline counts = HotKeys.counts(store, clock, sink, BatchFaultHook.NONE);

    // First attempt: the key is written (m1, m2 pending), the sink is down, and of the receipts
    // only m2's lands before the invocation fails.
    Object first = HotKeys.run(counts, fifo("g", "m1", "m2"));
    down[0] = false;
    // Lambda hands the batch over again (the visibility timeout ran out).
    Object second = HotKeys.run(counts, fifo("g", "m1", "m2"));
    // m2's result waits behind m1's: the batch hands m2 back, and SQS hands it over again.
    Object third = HotKeys.run(counts, fifo("g", "m2"));

    assertEquals(
        List.of("1", "2"),
        delivered,
        "group g's counts, in the order they went out; first attempt: "
            + first
            + ", second: "
            + second
            + ", third: "
            + third);
  }
}
