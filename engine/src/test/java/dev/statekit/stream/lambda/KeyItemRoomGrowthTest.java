package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.ListState;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * One queue message that grows its key's state near or past the item, among many of the key that
 * fit: which one grew it is not known, so the messages nearest either end of the key's go back
 * first, at least a sixteenth a pass; the grower goes back within a few passes and most of the
 * others are applied. Shared evenly and one a pass, every message of the key went back, in up to 54
 * function runs a message, on every delivery. In-memory adapters.
 */
class KeyItemRoomGrowthTest {
  private static final TypeName EGRESS = TypeName.of("test", "keyed-out");
  private static final StateSpec<ValueState<String>> BLOB =
      StateSpec.value("blob", Serdes.string());
  private static final StateSpec<ListState<String>> LIST = StateSpec.list("items", Serdes.string());
  static final AtomicLong CALLS = new AtomicLong();

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final CollectingEgressSink output = new CollectingEgressSink();
  private final CollectingEgressSink place = new CollectingEgressSink();

  private Pipeline blobs() {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              CALLS.incrementAndGet();
              ValueState<String> blob = context.state(BLOB);
              ListState<String> list = context.state(LIST);
              String v = record.value()[1];
              if (v.startsWith("state:")) {
                blob.update("s".repeat(Integer.parseInt(v.substring(6))));
              } else if (v.startsWith("add:")) {
                list.add(v.substring(4));
              } else if (!v.equals("noop")) {
                out.collect(record.value()[0] + ":" + v);
              }
            },
            BLOB,
            LIST)
        .to(EgressOutput.to(output, EGRESS, Types.stringType()));
  }

  private BatchPipeline pipeline(String name) {
    return BatchPipeline.builder(name, blobs())
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .refusedOutputsTo(place)
        .build();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static SourceBatch.Builder fifo(
      SourceBatch.Builder batch, String id, String group, String text) {
    return batch.add(id, 0, utf8(text), Map.of(SourceBatch.ORDER_GROUP, group));
  }

  private BatchResult run(
      BatchPipeline pipeline, String first, int n, String each, StringBuilder log) {
    SourceBatch.Builder batch = SourceBatch.unordered("q");
    batch.add("msg-000000", 0, utf8(first));
    for (int i = 1; i < n; i++) {
      batch.add(String.format("msg-%06d", i), 0, utf8(each));
    }
    CALLS.set(0);
    long start = System.nanoTime();
    BatchResult result = pipeline.process(batch.build());
    log.append(n)
        .append(" in, ")
        .append(result.failedOffsets().size())
        .append(" back, ")
        .append(CALLS.get())
        .append(" function runs, ")
        .append((System.nanoTime() - start) / 1_000_000)
        .append(" ms; ");
    return result;
  }

  /**
   * The key's first message alone grows its state to 401 KB; 999 messages after it change nothing
   * and output nothing: m0 goes back with at most a tenth of the others, in few passes.
   */
  @Test
  void oneMessageThatGrowsTheStatePastTheItemGoesBackNotTheKey() {
    BatchPipeline pipeline = pipeline("one-grows");
    StringBuilder log = new StringBuilder();
    BatchResult result = run(pipeline, "k,state:401000", 1000, "k,noop", log);
    assertTrue(result.failedOffsets().contains("msg-000000"), log.toString());
    assertTrue(result.failedOffsets().size() <= 100, "messages that fit went back: " + log);
    assertTrue(CALLS.get() < 20L * 1000, "too many passes: " + log);
  }

  /** The same where m0's 395 KB fits alone, and the others make a small output each. */
  @Test
  void oneMessageThatGrowsTheStateNearTheItemTakesFewPasses() {
    BatchPipeline pipeline = pipeline("one-grows-fits");
    StringBuilder log = new StringBuilder();
    BatchResult result = run(pipeline, "k,state:395000", 1000, "k,hello", log);
    assertTrue(!result.failedOffsets().contains("msg-000000"), log.toString());
    assertTrue(CALLS.get() < 20L * 1000, "too many passes: " + log);
  }

  /** Redelivered as the queue would, the key makes progress on every delivery. */
  @Test
  void redeliveryOfTheKeyMakesProgress() {
    BatchPipeline pipeline = pipeline("redeliver");
    StringBuilder log = new StringBuilder();
    int n = 300;
    List<String> back = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      back = run(pipeline, "k,state:410000", n, "k,noop", log).failedOffsets();
    }
    assertTrue(back.size() < n / 2, "every delivery hands back the whole key: " + log);
  }

  /** m0 alone grows the state past the item (410 KB > 409,600 B); 999 no-op messages fit. */
  @Test
  void aMessageOverTheItemAloneGoesBackNotTheKey() {
    BatchPipeline pipeline = pipeline("over");
    StringBuilder log = new StringBuilder();
    BatchResult result = run(pipeline, "k,state:410000", 1000, "k,noop", log);
    assertTrue(result.failedOffsets().contains("msg-000000"), log.toString());
    assertTrue(result.failedOffsets().size() <= 100, "messages that fit went back: " + log);
  }

  /** Scaling: 5,000 messages behind a 395 KB grower. */
  @Test
  void fiveThousandMessagesTakeFewPasses() {
    BatchPipeline pipeline = pipeline("scale");
    StringBuilder log = new StringBuilder();
    run(pipeline, "k,state:395000", 5000, "k,noop", log);
    assertTrue(CALLS.get() < 20L * 5000, "too many passes: " + log);
  }

  /** The same as 10,000 messages: their pending entries alone pass the item. */
  @Test
  void tenThousandMessagesBehindAMessageOverTheItem() {
    BatchPipeline pipeline = pipeline("over10k");
    StringBuilder log = new StringBuilder();
    BatchResult result = run(pipeline, "k,state:410000", 10000, "k,noop", log);
    // 10,000 pending entries alone pass the item: about 7,800 fit beside the state.
    assertTrue(result.failedOffsets().contains("msg-000000"), log.toString());
    assertTrue(result.failedOffsets().size() <= 2500, "messages that fit went back: " + log);
    assertTrue(CALLS.get() < 20L * 10000, "too many passes: " + log);
  }
}
