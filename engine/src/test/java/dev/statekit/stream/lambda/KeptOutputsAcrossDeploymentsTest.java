package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.DeadLetter;
import dev.statekit.stream.FailurePolicy;
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
 * Results a key keeps until they are delivered (a shard's outbox, a queue message's pending entry
 * and receipt) are delivered by the deployment that runs next, which may have other outputs: each
 * goes to the output of its egress, wherever that output now stands in the plan. Before, a key kept
 * the output's position in the plan, so a deployment that added an output upstream (a dead-letter
 * policy) sent kept results to the new output. In-memory adapters.
 */
class KeptOutputsAcrossDeploymentsTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final String QUEUE = "orders-queue";
  private static final TypeName COUNTS = TypeName.of("test", "counts");
  private static final TypeName DEAD = TypeName.of("test", "dead");
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore store = new InMemoryBatchStore(clock);

  /** Every delivery, repeats included (a collecting sink keeps one record per id). */
  private final List<EgressRecord> counts = new java.util.concurrent.CopyOnWriteArrayList<>();

  private final EgressSink countsSink = counts::addAll;
  private final CollectingEgressSink deadLetters = new CollectingEgressSink();

  /** Counts records per key; with {@code deadLetters}, a dead-letter output ahead of the counts. */
  private Pipeline plan(boolean withDeadLetters, TypeName countsEgress) {
    dev.statekit.stream.DataStream<String[]> split =
        withDeadLetters
            ? Pipeline.from(BatchSource.records())
                .map(b -> new String(b, StandardCharsets.UTF_8))
                .<String[]>process(
                    "split",
                    (record, out) -> out.collect(record.value().split(",", 2)),
                    FailurePolicy.deadLetter(
                        EgressOutput.to(
                            deadLetters,
                            DEAD,
                            Types.simple(
                                TypeName.of("test", "dead-letter"),
                                (DeadLetter<String> d) ->
                                    d.record().value().getBytes(StandardCharsets.UTF_8),
                                b -> {
                                  throw new UnsupportedOperationException();
                                }))))
            : Pipeline.from(BatchSource.records())
                .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2));
    return split
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              ValueState<Long> seen = context.state(SEEN);
              long count = seen.value() == null ? 1 : seen.value() + 1;
              seen.update(count);
              out.collect(record.value()[0] + ":" + count);
            },
            SEEN)
        .to(EgressOutput.to(countsSink, countsEgress, Types.stringType()));
  }

  private BatchPipeline deploy(Pipeline plan, String split, BatchFaultHook hook) {
    BatchPipeline pipeline =
        BatchPipeline.builder("kept", plan)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(hook)
            .build();
    pipeline.registerSplits(List.of(split));
    return pipeline;
  }

  private static SourceBatch shard(String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    long sequence = 1000;
    for (String record : records) {
      batch.add(Long.toString(sequence++), 0, record.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private SourceBatch queue(String... messages) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (String message : messages) {
      String[] idAndBody = message.split("=", 2);
      batch.add(idAndBody[0], clock.millis(), idAndBody[1].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private static List<String> texts(List<EgressRecord> records) {
    return records.stream().map(r -> r.egress() + " " + r.id() + " " + r.textOrBase64()).toList();
  }

  /**
   * A shard's batch dies after its keys' writes, before delivering; the next deployment puts a
   * dead-letter output ahead of the counts and runs Lambda's retry of the batch: the kept counts go
   * to the counts, none to the dead letters.
   */
  @Test
  void aShardsKeptResultsGoToTheirOutputWhenADeploymentAddsOneAheadOfIt() {
    SourceBatch batch = shard("k1,a", "k2,b", "k1,c");
    BatchPipeline first = deploy(plan(false, COUNTS), SHARD, HotKeys.deliveriesFail(1));
    assertThrows(IllegalStateException.class, () -> first.process(batch));
    assertEquals(List.of(), counts);

    BatchResult retried = deploy(plan(true, COUNTS), SHARD, BatchFaultHook.NONE).process(batch);

    assertTrue(retried.succeeded(), retried.toString());
    assertEquals(List.of(), texts(deadLetters.records()), "no count went to the dead letters");
    assertEquals(
        List.of("k1:1", "k1:2", "k2:1"),
        counts.stream().map(EgressRecord::textOrBase64).sorted().toList(),
        texts(counts).toString());
    assertTrue(counts.stream().allMatch(r -> r.egress().equals(COUNTS)));
  }

  /**
   * A queue message applied and delivered, then handed over again (SQS delivers at least once) to a
   * deployment with a dead-letter output ahead of the counts: its kept result goes out again to the
   * counts, under the same id, and the message is not counted twice.
   */
  @Test
  void aQueueMessagesKeptResultGoesToItsOutputWhenADeploymentAddsOneAheadOfIt() {
    BatchResult applied =
        deploy(plan(false, COUNTS), QUEUE, BatchFaultHook.NONE).process(queue("m1=k1,a"));
    assertTrue(applied.succeeded(), applied.toString());

    BatchPipeline next = deploy(plan(true, COUNTS), QUEUE, BatchFaultHook.NONE);
    BatchResult again = next.process(queue("m1=k1,a"));
    assertTrue(again.succeeded(), again.toString());
    BatchResult later = next.process(queue("m2=k1,b"));
    assertTrue(later.succeeded(), later.toString());

    assertEquals(List.of(), texts(deadLetters.records()), "no count went to the dead letters");
    assertEquals(
        List.of("k1:1", "k1:1", "k1:2"),
        counts.stream().map(EgressRecord::textOrBase64).toList(),
        texts(counts).toString());
    assertEquals(counts.get(0).id(), counts.get(1).id(), "the same id again");
  }

  /**
   * The next deployment has no output of the kept results' egress: the batch fails and says which
   * egress the key keeps results for and what to do; nothing goes to another output.
   */
  @Test
  void aKeptResultWhoseOutputADeploymentRemovedFailsItsBatchNamingTheEgress() {
    SourceBatch batch = shard("k1,a");
    BatchPipeline first = deploy(plan(false, COUNTS), SHARD, HotKeys.deliveriesFail(1));
    assertThrows(IllegalStateException.class, () -> first.process(batch));

    BatchPipeline renamed =
        deploy(plan(true, TypeName.of("test", "renamed")), SHARD, BatchFaultHook.NONE);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> renamed.process(batch));

    assertTrue(e.getMessage().contains("test/counts"), e.getMessage());
    assertTrue(e.getMessage().contains("deploy"), e.getMessage());
    assertEquals(List.of(), counts);
    assertEquals(List.of(), deadLetters.records());
  }

  /**
   * Messages applied under the counts egress and handed over again (SQS delivers at least once) to
   * a deployment that renamed it, in one batch with new messages: the repeat goes back alone, named
   * with the egress its key keeps results for, and the new messages are applied and delivered. A
   * whole failed batch would take the new messages with it on every try, to the dead-letter queue.
   */
  @Test
  void aRepeatWhoseKeptResultsEgressIsGoneGoesBackAloneAndTheOthersAreApplied() {
    BatchPipeline first = deploy(plan(false, COUNTS), QUEUE, BatchFaultHook.NONE);
    assertTrue(first.process(queue("m1=k1,a")).succeeded());
    counts.clear();

    BatchPipeline renamed =
        deploy(plan(false, TypeName.of("test", "renamed")), QUEUE, BatchFaultHook.NONE);
    BatchResult result = renamed.process(queue("m2=k2,b", "m1=k1,a", "m3=k1,c"));

    assertEquals(List.of("m1"), result.failedOffsets(), result.toString());
    assertTrue(result.failure().orElseThrow().contains("test/counts"), result.toString());
    assertEquals(List.of("test/renamed k1:2", "test/renamed k2:1"), delivered());
  }

  /**
   * The same when the first deployment died after writing its keys, before delivering and writing
   * receipts: the repeat's key keeps it pending, and it goes back alone; the key's other message
   * and the other key's are applied once.
   */
  @Test
  void aPendingRepeatWhoseKeptResultsEgressIsGoneGoesBackAlone() {
    BatchPipeline first = deploy(plan(false, COUNTS), QUEUE, HotKeys.deliveriesFail(1));
    assertThrows(IllegalStateException.class, () -> first.process(queue("m1=k1,a")));
    assertEquals(List.of(), counts);

    BatchPipeline renamed =
        deploy(plan(false, TypeName.of("test", "renamed")), QUEUE, BatchFaultHook.NONE);
    BatchResult result = renamed.process(queue("m2=k2,b", "m1=k1,a", "m3=k1,c"));

    assertEquals(List.of("m1"), result.failedOffsets(), result.toString());
    assertTrue(result.failure().orElseThrow().contains("test/counts"), result.toString());
    assertEquals(List.of("test/renamed k1:2", "test/renamed k2:1"), delivered());

    // With the egress back, the message's kept result goes out, and it is not applied again.
    counts.clear();
    BatchResult back =
        deploy(plan(false, COUNTS), QUEUE, BatchFaultHook.NONE).process(queue("m1=k1,a"));
    assertTrue(back.succeeded(), back.toString());
    assertEquals(List.of("test/counts k1:1"), delivered());
  }

  /**
   * In a FIFO queue the messages after the repeat in its order group go back with it, so that its
   * group's results keep their order; another group's are applied.
   */
  @Test
  void aFifoRepeatWhoseKeptResultsEgressIsGoneTakesItsGroupBack() {
    BatchPipeline first = deploy(plan(false, COUNTS), QUEUE, BatchFaultHook.NONE);
    assertTrue(first.process(fifo("m1=g1=k1,a")).succeeded());
    counts.clear();

    BatchPipeline renamed =
        deploy(plan(false, TypeName.of("test", "renamed")), QUEUE, BatchFaultHook.NONE);
    BatchResult result = renamed.process(fifo("m1=g1=k1,a", "m2=g2=k2,b", "m3=g1=k3,c"));

    assertEquals(List.of("m1", "m3"), result.failedOffsets(), result.toString());
    assertEquals(List.of("test/renamed k2:1"), delivered());
  }

  /** Each delivery's egress and text, sorted. */
  private List<String> delivered() {
    return counts.stream().map(r -> r.egress() + " " + r.textOrBase64()).sorted().toList();
  }

  private SourceBatch fifo(String... messages) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (String message : messages) {
      String[] parts = message.split("=", 3);
      batch.add(
          parts[0],
          clock.millis(),
          parts[2].getBytes(StandardCharsets.UTF_8),
          java.util.Map.of(SourceBatch.ORDER_GROUP, parts[1]));
    }
    return batch.build();
  }
}
