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
 * Many small results of one output: a key's list of them names their route once, and the room they
 * take is counted so. Counted with the route's name for each (as the first version of named routes
 * did), a queue message whose results fit was handed back on every try, and a shard set aside the
 * results of the wrong record. In-memory adapters.
 */
class KeptOutputListsTest {
  private static final String SHARD = "orders/shardId-000000000000";

  /** 36 characters: an ordinary egress name. */
  private static final TypeName EGRESS = TypeName.of("com.example.orders", "order-line-events");

  private static final StateSpec<ValueState<String>> BLOB =
      StateSpec.value("blob", Serdes.string());

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final CollectingEgressSink output = new CollectingEgressSink();
  private final CollectingEgressSink place = new CollectingEgressSink();

  /** "k,state:N" sets k's state to N characters; "k,many:N" makes N results; else "k:value". */
  private BatchPipeline pipeline(String name) {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
            .keyBy(parts -> parts[0])
            .<String>process(
                (record, context, out) -> {
                  ValueState<String> blob = context.state(BLOB);
                  String v = record.value()[1];
                  if (v.startsWith("state:")) {
                    blob.update("s".repeat(Integer.parseInt(v.substring(6))));
                  } else if (v.startsWith("many:")) {
                    int n = Integer.parseInt(v.substring(5));
                    for (int i = 0; i < n; i++) {
                      out.collect(String.format("%08d", i));
                    }
                  } else {
                    out.collect(record.value()[0] + ":" + v);
                  }
                },
                BLOB)
            .to(EgressOutput.to(output, EGRESS, Types.stringType()));
    return BatchPipeline.builder(name, plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .refusedOutputsTo(place)
        .build();
  }

  /**
   * 6,000 results of 8 characters: about 290 KB in the item; counted with the name each, 515 KB.
   */
  @Test
  void aQueueMessageWhoseManyResultsFitItsKeysItemIsApplied() {
    BatchResult result =
        pipeline("fan")
            .process(
                SourceBatch.unordered("orders-queue")
                    .add("m1", 0, "k,many:6000".getBytes(StandardCharsets.UTF_8))
                    .build());

    assertEquals(List.of(), result.failedOffsets(), result.toString());
    assertEquals(6000, output.records().size());
    assertEquals(List.of(), place.records());
  }

  /**
   * A key with a 339 KB state; record 1001 makes 900 small results (about 58 KB as written, 92 KB
   * counted with the name each), 1002 one of 80 KB. Setting 1002 aside is enough; 1001 was set
   * aside first, then 1002 too, and 1001's results, which fit, went without their values.
   */
  @Test
  void aShardSetsAsideTheRecordWhoseResultsTakeTheMostAsWritten() {
    BatchPipeline pipeline = pipeline("pick");
    pipeline.registerSplits(List.of(SHARD));
    BatchResult state =
        pipeline.process(
            SourceBatch.ordered(SHARD)
                .add("1000", 0, "k,state:339000".getBytes(StandardCharsets.UTF_8))
                .build());
    assertTrue(state.succeeded(), state.toString());

    BatchResult result =
        pipeline.process(
            SourceBatch.ordered(SHARD)
                .add("1001", 0, "k,many:900".getBytes(StandardCharsets.UTF_8))
                .add("1002", 0, ("k," + "b".repeat(80_000)).getBytes(StandardCharsets.UTF_8))
                .build());

    assertTrue(result.succeeded(), result.toString());
    List<String> setAside =
        place.records().stream()
            .map(r -> RefusedOutput.TYPE.deserialize(r.value()).reason())
            .toList();
    assertEquals(1, setAside.size(), setAside.toString());
    assertTrue(setAside.get(0).startsWith("Record 1002 "), setAside.toString());
    assertEquals(900, output.records().size(), "1001's results are kept and delivered");
  }
}
