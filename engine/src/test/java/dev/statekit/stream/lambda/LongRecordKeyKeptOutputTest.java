package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariants 2 and 3 (nothing lost, nothing stuck). A keyed result whose record key ({@link
 * EgressOutput#withKey}: the FIFO group / Kinesis partition key, which both sinks hash when long)
 * is longer than 65,535 UTF-8 bytes: the key's item keeps the output until delivered, and {@code
 * StoredOutput.write} writes the key with {@code DataOutputStream.writeUTF}, which cannot write
 * more than 65,535 bytes. The key's write fails (UTFDataFormatException) on every try: the batch
 * fails, Lambda retries until it gives the range up, and the replay fails the same way; the record
 * is neither delivered nor set aside, though the sink itself takes it (SQS and Kinesis hash such a
 * key). Schedule: one Kinesis batch, one record.
 */
class LongRecordKeyKeptOutputTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  @Test
  void aResultWithARecordKeyPast64KibIsDeliveredNotStuck() {
    ManualClock clock = new ManualClock(1_700_000_000_000L);
    CollectingEgressSink output = new CollectingEgressSink();
    Pipeline p =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
            .keyBy(parts -> parts[0])
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> seen = context.state(SEEN);
                  seen.update(seen.value() == null ? 1 : seen.value() + 1);
                  out.collect(record.value()[1]);
                },
                SEEN)
            .to(
                EgressOutput.to(output, TypeName.of("test", "keyed-out"), Types.stringType())
                    .withKey(value -> value));
    BatchPipeline pipeline =
        BatchPipeline.builder("long-record-key", p)
            .store(new InMemoryBatchStore())
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    pipeline.registerSplits(List.of(SHARD));
    String value = "v".repeat(70_000); // the record key is the value: 70,000 bytes
    BatchResult result;
    try {
      result =
          pipeline.process(
              SourceBatch.ordered(SHARD)
                  .add("1000", 0, ("k," + value).getBytes(StandardCharsets.UTF_8))
                  .build());
    } catch (RuntimeException e) {
      throw new AssertionError("the batch fails (on every try): " + e, e);
    }
    assertTrue(result.succeeded(), result.toString());
    assertEquals(1, output.records().size());
  }
}
