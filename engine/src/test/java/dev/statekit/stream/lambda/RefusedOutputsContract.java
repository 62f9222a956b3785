package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressSink;
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
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A result its output's sink refuses for what it holds (past the queue's size) is refused on every
 * try: it failed its batch until Lambda gave the batch up, and the range's replay failed the same
 * way, holding the shard's windows for good. With {@code refusedOutputsTo} it is set aside there
 * and the batch goes on; without, the batch's error says what to do. Run on the in-memory adapters
 * and on ElasticMQ and Dynoxide.
 */
abstract class RefusedOutputsContract {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final String QUEUE = "orders-queue";
  static final TypeName EGRESS = TypeName.of("test", "refused-out");
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  final String name = "refused-" + Long.toHexString(System.nanoTime());
  final ManualClock clock = new ManualClock(1_700_000_000_000L);

  abstract BatchStore store();

  /** The outputs' sink: a queue that refuses a message past 256 KiB. */
  abstract EgressSink output();

  /** The texts the output's sink holds, repeats included. */
  abstract List<String> delivered();

  /** Where refused outputs are set aside. */
  abstract EgressSink refusedSink();

  /** The refused outputs set aside, repeats included. */
  abstract List<RefusedOutput> setAside();

  /** "key,payload": each record's output is "key:count:payload", the key's running count. */
  static Pipeline counted(EgressSink sink) {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              ValueState<Long> seen = context.state(SEEN);
              long count = seen.value() == null ? 1 : seen.value() + 1;
              seen.update(count);
              out.collect(record.value()[0] + ":" + count + ":" + record.value()[1]);
            },
            SEEN)
        .to(EgressOutput.to(sink, EGRESS, Types.stringType()));
  }

  private BatchPipeline pipeline(EgressSink output, EgressSink refused) {
    return pipeline(output, refused, BatchFaultHook.NONE);
  }

  private BatchPipeline pipeline(EgressSink output, EgressSink refused, BatchFaultHook hook) {
    BatchPipeline.Builder builder =
        BatchPipeline.builder(name, counted(output))
            .store(store())
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(hook);
    if (refused != null) {
      builder.refusedOutputsTo(refused);
    }
    BatchPipeline pipeline = builder.build();
    pipeline.registerSplits(List.of(SHARD));
    return pipeline;
  }

  private static SourceBatch shard(long firstSequence, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    long sequence = firstSequence;
    for (String record : records) {
      batch.add(Long.toString(sequence++), 0, record.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private String position(BatchPipeline pipeline) {
    for (SplitState split : pipeline.splits()) {
      if (split.split().equals(SHARD)) {
        return split.position();
      }
    }
    return null;
  }

  private Set<String> deliveredTexts() {
    return new TreeSet<>(delivered());
  }

  /** What the set-aside outputs say, once per record id. */
  private Map<String, RefusedOutput> setAsideById() {
    return setAside().stream()
        .collect(Collectors.toMap(RefusedOutput::id, r -> r, (a, b) -> a, java.util.TreeMap::new));
  }

  /** The value of the refused output {@code id}, its parts joined once each. */
  private byte[] joined(String id) {
    Map<Integer, RefusedOutput> parts = new java.util.TreeMap<>();
    int count = -1;
    for (RefusedOutput part : setAside()) {
      if (part.id().equals(id)) {
        parts.put(part.part(), part);
        count = part.parts();
      }
    }
    assertEquals(count, parts.size(), "every part once: " + parts.keySet());
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    parts.values().forEach(part -> bytes.writeBytes(part.value()));
    return bytes.toByteArray();
  }

  private static String huge() {
    return "x".repeat(300_000);
  }

  @Test
  void withoutAPlaceForThemARefusedResultFailsItsBatchWithAnErrorThatSaysWhatToDo() {
    BatchPipeline pipeline = pipeline(output(), null);
    SourceBatch batch = shard(1000, "k1,a", "k2," + huge(), "k1,c");

    RuntimeException failed = assertThrows(RuntimeException.class, () -> pipeline.process(batch));

    String message = String.valueOf(failed.getMessage());
    assertTrue(message.contains("refusedOutputsTo"), message);
    assertTrue(message.contains("more than the queue's"), message);
    assertNull(position(pipeline), "the checkpoint did not move");
    assertEquals(Set.of(), setAsideById().keySet());
  }

  @Test
  void aRefusedResultIsSetAsideOnceAndTheBatchAndItsKeysGoOn() {
    // The batch failed before the place was given (as above); the pipeline redeployed with one
    // takes Lambda's retry of the same batch.
    SourceBatch batch = shard(1000, "k1,a", "k2," + huge(), "k1,c");
    assertThrows(RuntimeException.class, () -> pipeline(output(), null).process(batch));
    BatchPipeline pipeline = pipeline(output(), refusedSink());

    BatchResult result = pipeline.process(batch);
    pipeline.process(shard(1003, "k2,d", "k1,e"));

    assertTrue(result.succeeded(), result.toString());
    assertEquals("1004", position(pipeline));
    // k2's refused result counted once in its state: its next record is its second.
    assertEquals(Set.of("k1:1:a", "k1:2:c", "k2:2:d", "k1:3:e"), deliveredTexts());
    Map<String, RefusedOutput> refused = setAsideById();
    assertEquals(1, refused.size(), refused.toString());
    RefusedOutput output = refused.values().iterator().next();
    assertEquals(EGRESS.asString(), output.egress());
    assertEquals(Types.stringType().serialize("k2:1:" + huge()).length, output.bytes());
    assertTrue(output.source().endsWith("/k2"), output.source());
    assertTrue(output.reason().contains("more than the queue's"), output.reason());
    assertEquals(
        "k2:1:" + huge(),
        Types.stringType().deserialize(joined(output.id())),
        "the value comes whole, in parts");
  }

  @Test
  void aRefusedResultSetAsideAgainByARetriedBatchKeepsItsId() {
    FlakySink refused = new FlakySink(refusedSink());
    BatchPipeline pipeline = pipeline(output(), refused);
    SourceBatch batch = shard(1000, "k1,a", "k2," + huge());

    refused.failNext(1);
    assertThrows(RuntimeException.class, () -> pipeline.process(batch), "the place is down");
    assertNull(position(pipeline), "a set-aside that failed fails the batch");
    pipeline.process(batch);

    assertEquals(Set.of("k1:1:a"), deliveredTexts());
    assertEquals(1, setAsideById().size(), setAside().toString());
  }

  @Test
  void aSinkFailureThatNamesNoRecordStillFailsTheBatchAndSetsNothingAside() {
    FlakySink output = new FlakySink(output());
    BatchPipeline pipeline = pipeline(output, refusedSink());
    SourceBatch batch = shard(1000, "k1,a", "k2,b");

    output.failNext(1);
    assertThrows(RuntimeException.class, () -> pipeline.process(batch));
    assertNull(position(pipeline));
    pipeline.process(batch);

    assertEquals(Set.of("k1:1:a", "k2:1:b"), deliveredTexts());
    assertEquals(Set.of(), setAsideById().keySet());
  }

  @Test
  void aQueuesMessageWhoseResultIsRefusedIsNotAFailedMessage() {
    BatchPipeline pipeline = pipeline(output(), refusedSink());
    SourceBatch batch =
        SourceBatch.unordered(QUEUE)
            .add("m1", 0, "k1,a".getBytes(StandardCharsets.UTF_8))
            .add("m2", 0, ("k2," + huge()).getBytes(StandardCharsets.UTF_8))
            .add("m3", 0, "k3,c".getBytes(StandardCharsets.UTF_8))
            .build();

    BatchResult result = pipeline.process(batch);

    assertEquals(List.of(), result.failedOffsets());
    assertEquals(Set.of("k1:1:a", "k3:1:c"), deliveredTexts());
    assertEquals(1, setAsideById().size(), setAside().toString());
  }

  /**
   * A key keeps its batch's outputs in its item until they are delivered, and an item holds 400 KB:
   * a record whose output was larger (a Kinesis record takes 1 MiB) made the key's write fail on
   * every try, stopping the shard, with an error that blamed the key's state. With a place, the
   * output goes there instead (a stand-in is kept and delivered in its place, again with the same
   * id after a crash between the key's write and the delivery).
   */
  @Test
  void aResultTooLargeToKeepInItsKeyIsSetAsideAndDeliveredAgainAfterACrash() {
    String tooLarge = "y".repeat(450_000);
    SourceBatch batch = shard(1000, "k1,a", "k2," + tooLarge, "k2,c");
    RuntimeException failed =
        assertThrows(RuntimeException.class, () -> pipeline(output(), null).process(batch));
    assertTrue(
        String.valueOf(failed.getMessage()).contains("refusedOutputsTo"), failed.getMessage());
    // The invocation dies before delivering, once.
    BatchPipeline pipeline = pipeline(output(), refusedSink(), HotKeys.deliveriesFail(1));

    assertThrows(IllegalStateException.class, () -> pipeline.process(batch));
    assertEquals(Set.of(), setAsideById().keySet(), "nothing delivered yet");
    BatchResult result = pipeline.process(batch); // Lambda's retry: the keys applied it already

    assertTrue(result.succeeded(), result.toString());
    assertEquals("1002", position(pipeline));
    Set<String> texts = deliveredTexts();
    assertTrue(texts.contains("k1:1:a"), texts.toString());
    assertTrue(texts.stream().noneMatch(t -> t.startsWith("k2:1:")), "set aside, not delivered");
    Map<String, RefusedOutput> refused = setAsideById();
    assertEquals(1, refused.size(), refused.toString());
    RefusedOutput output = refused.values().iterator().next();
    assertTrue(output.reason().contains("item keeps beside the key's state"), output.reason());
    assertTrue(output.reason().startsWith("Record 1001 of " + SHARD), output.reason());
    assertEquals(0, output.parts(), "nothing the batch writes can hold the value");
    assertNull(output.value());
    assertEquals(Types.stringType().serialize("k2:1:" + tooLarge).length, output.bytes());
    // k2's next record, in the same batch, counted after it: applied once, in order.
    assertTrue(texts.contains("k2:2:c"), texts.toString());
  }

  /**
   * On a queue the message whose result its key cannot keep goes back, alone: the queue hands it
   * over again and its redrive policy keeps it, whole, in the dead-letter queue, while the batch's
   * other messages are applied. Before, the key's write failed the whole batch on every try.
   */
  @Test
  void aQueuesMessageWhoseResultItsKeyCannotKeepFailsAloneAndKeepsItsBody() {
    for (EgressSink place : java.util.Arrays.asList(null, refusedSink())) {
      BatchPipeline pipeline = pipeline(output(), place);
      String suffix = place == null ? "-a" : "-b";
      SourceBatch batch =
          SourceBatch.unordered(QUEUE)
              .add("m1" + suffix, 0, ("k1" + suffix + ",a").getBytes(StandardCharsets.UTF_8))
              .add(
                  "m2" + suffix,
                  0,
                  ("k2" + suffix + "," + "z".repeat(450_000)).getBytes(StandardCharsets.UTF_8))
              .add("m3" + suffix, 0, ("k2" + suffix + ",c").getBytes(StandardCharsets.UTF_8))
              .build();

      BatchResult result = pipeline.process(batch);

      assertTrue(result.failedOffsets().contains("m2" + suffix), result.toString());
      assertTrue(!result.failedOffsets().contains("m1" + suffix), result.toString());
      assertTrue(result.failure().orElse("").contains("dead-letter queue"), result.toString());
      assertTrue(deliveredTexts().contains("k1" + suffix + ":1:a"), deliveredTexts().toString());
      // m3, of the same key, waited for the key's room or came after m2: handed over again, it is
      // applied without m2, which is not counted.
      pipeline.process(
          SourceBatch.unordered(QUEUE)
              .add("m3" + suffix, 0, ("k2" + suffix + ",c").getBytes(StandardCharsets.UTF_8))
              .build());
      assertTrue(deliveredTexts().contains("k2" + suffix + ":1:c"), deliveredTexts().toString());
    }
    assertEquals(Set.of(), setAsideById().keySet());
  }
}
