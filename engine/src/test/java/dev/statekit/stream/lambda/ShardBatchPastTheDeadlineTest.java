package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.entry.EntryPoint;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A Kinesis batch whose records together take longer than the function's timeout (a map calling a
 * slow dependency, 50 ms a record, 100 records, a 3 s timeout). Lambda cuts an invocation off at
 * its timeout with none of its answers, so a batch that ignored the deadline was cut off before its
 * checkpoint on every try, made no progress, and was finally given up. The batch now stops taking
 * records while a reserve of its time is left, checkpoints what it applied and answers the first
 * record it did not take as failed: Lambda resumes there, and every record is applied once, in
 * order.
 */
class ShardBatchPastTheDeadlineTest {
  private static final int RECORDS = 100;
  private static final BigInteger FIRST =
      new BigInteger("49590338271490256608559692538361571095921575989136588898");

  private static String sequence(int i) {
    return FIRST.add(BigInteger.valueOf(2L * i)).toString();
  }

  private static byte[] event(List<Integer> values, java.util.function.IntFunction<String> data) {
    List<LambdaEvents.Shard> records = new ArrayList<>();
    for (int i : values) {
      records.add(
          new LambdaEvents.Shard(sequence(i), "p" + i % 4, data.apply(i), 1_700_000_000L + i));
    }
    return LambdaEvents.kinesis("clicks", "shardId-000000000000", records);
  }

  private static EntryPoint entry(String name, Pipeline plan) {
    BatchPipeline pipeline =
        BatchPipeline.builder(name, plan)
            .store(new InMemoryBatchStore())
            .batchTimeout(DeadlineTries.TIMEOUT)
            .build();
    return EntryPoint.builder().kinesisStream("clicks", pipeline.kinesisConsumer()).build();
  }

  /** A running concatenation per key of records 0 to 99, each mapped by a slow call. */
  private static DeadlineTries slowMap() {
    return new DeadlineTries(
        sink ->
            entry(
                "slow-map",
                Pipeline.from(BatchSource.records())
                    .map(
                        bytes -> {
                          DeadlineTries.slowly();
                          return new String(bytes, StandardCharsets.UTF_8);
                        })
                    .keyBy(text -> "k" + Integer.parseInt(text) % 4)
                    .reduce((a, b) -> a + " " + b, Serdes.string())
                    .to(EgressOutput.to(sink, TypeName.of("test", "runs"), Types.stringType()))));
  }

  /**
   * Hands the shard's records over from the first, each try from the sequence number the one before
   * answered as failed, as Lambda does; returns how many tries it took.
   */
  private static int drain(DeadlineTries tries, java.util.function.IntFunction<String> data) {
    int from = 0;
    for (int round = 1; ; round++) {
      assertTrue(round <= 20, "the shard's records were not all taken in 20 tries");
      List<Integer> handed = IntStream.range(from, RECORDS).boxed().toList();
      List<String> failed = tries.invoke(event(handed, data), handed.size());
      if (failed.isEmpty()) {
        return round;
      }
      assertEquals(1, failed.size(), "a shard answers its first failed record: " + failed);
      int at = handed.indexOf(indexOf(failed.get(0)));
      assertTrue(at > 0, "try " + round + " answered " + failed + ", not after its first record");
      from += at;
    }
  }

  private static int indexOf(String sequence) {
    return new BigInteger(sequence).subtract(FIRST).divide(BigInteger.TWO).intValueExact();
  }

  @Test
  void aBatchLongerThanTheTimeoutIsTakenOverSeveralTriesEachRecordOnceInOrder() {
    DeadlineTries tries = slowMap();

    int rounds = drain(tries, Integer::toString);

    assertTrue(rounds > 1, "the batch fitted in one try: " + tries.tries());
    Set<String> expected =
        DeadlineTries.runningConcatenations(
            IntStream.range(0, RECORDS).boxed().toList(), i -> "k" + i % 4);
    assertEquals(RECORDS, tries.outputs().size(), "one output per record");
    assertEquals(expected, new HashSet<>(tries.outputs().values()));
  }

  /**
   * The keyed function is the slow step: the batch stops taking records in its keyed pass, and the
   * windows it fires are those the records it took close, so the records it hands back are not late
   * when they come again. Record i has event time i * 100 ms, of key i % 2: ten windows of a
   * second, five records of each key in each.
   */
  @Test
  void aSlowKeyedFunctionStopsInTimeAndLeavesTheRestOnTime() {
    DeadlineTries tries =
        new DeadlineTries(
            sink ->
                entry(
                    "slow-windows",
                    Pipeline.from(BatchSource.records())
                        .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                        .withWatermarks(
                            WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ZERO)
                                .withTimestamps(text -> Long.parseLong(text) * 100))
                        .keyBy(text -> "k" + Integer.parseInt(text) % 2)
                        .window(Windows.tumbling(Duration.ofSeconds(1)))
                        .aggregate(
                            new SlowCount(),
                            Serdes.longs(),
                            (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
                        .to(
                            EgressOutput.to(
                                sink, TypeName.of("test", "counts"), Types.stringType()))));

    int rounds = drain(tries, Integer::toString);
    // A record far ahead in event time closes the last window.
    tries.invoke(event(List.of(RECORDS + 100), Integer::toString), 1);

    assertTrue(rounds > 1, "the batch fitted in one try: " + tries.tries());
    Set<String> expected = new TreeSet<>();
    for (int window = 0; window < 10; window++) {
      expected.add("k0@" + window * 1000 + "=5");
      expected.add("k1@" + window * 1000 + "=5");
    }
    assertEquals(expected, new TreeSet<>(tries.outputs().values()));
  }

  /**
   * With no time left at all a try still takes its first record, so that Lambda's retries go on:
   * one record a try.
   */
  @Test
  void aTryWithNoTimeLeftStillTakesItsFirstRecord() {
    DeadlineTries tries =
        new DeadlineTries(
            sink ->
                entry(
                    "no-time",
                    Pipeline.from(BatchSource.records())
                        .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                        .keyBy(text -> "k" + Integer.parseInt(text) % 4)
                        .reduce((a, b) -> a + " " + b, Serdes.string())
                        .to(
                            EgressOutput.to(
                                sink, TypeName.of("test", "runs"), Types.stringType()))));
    int records = 5;
    List<Integer> all = IntStream.range(0, records).boxed().toList();
    for (int from = 0; from < records; from++) {
      List<Integer> handed = all.subList(from, records);
      List<String> failed = tries.invokeWithNoTimeLeft(event(handed, Integer::toString));
      assertEquals(
          from == records - 1 ? List.of() : List.of(sequence(from + 1)),
          failed,
          "one record a try, from record " + from);
    }
    assertEquals(
        DeadlineTries.runningConcatenations(all, i -> "k" + i % 4),
        new HashSet<>(tries.outputs().values()));
  }

  /**
   * A batch whose answer was lost after it checkpointed comes again whole, and this time its
   * deadline stops it at a record its checkpoint covers. Lambda must resume after the checkpoint:
   * at a record the checkpoint covers the retry would be refused as a batch starting inside it, and
   * with nothing answered the records after the checkpoint would be skipped.
   */
  @Test
  void aWholeRetryStoppedBehindItsCheckpointResumesAfterIt() {
    AtomicBoolean failSix = new AtomicBoolean(true);
    List<String> outputs = new ArrayList<>();
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "lost-answer",
                Pipeline.from(BatchSource.records())
                    .map(
                        bytes -> {
                          String text = new String(bytes, StandardCharsets.UTF_8);
                          if (text.equals("6") && failSix.getAndSet(false)) {
                            throw new IllegalStateException("a lookup timed out");
                          }
                          return text;
                        })
                    .keyBy(text -> "k" + Integer.parseInt(text) % 4)
                    .reduce((a, b) -> a + " " + b, Serdes.string())
                    .to(
                        EgressOutput.to(
                            records -> records.forEach(r -> outputs.add(r.id())),
                            TypeName.of("test", "runs"),
                            Types.stringType())))
            .store(new InMemoryBatchStore())
            .build();

    BatchResult first = pipeline.process(batch(0, 10));
    assertEquals(List.of(sequence(6)), first.failedOffsets(), "6 failed: Lambda resumes there");
    // The answer was lost: Lambda hands the whole batch over again, now with no time left.
    BatchResult again = pipeline.process(batch(0, 10), Deadline.after(Duration.ZERO));
    assertEquals(
        List.of(sequence(6)),
        again.failedOffsets(),
        "stopped at record 1, behind the checkpoint (5): Lambda resumes at 6. " + again);
    BatchResult rest = pipeline.process(batch(6, 10));

    assertEquals(List.of(), rest.failedOffsets());
    assertEquals(4, rest.applied());
    assertEquals(10, new HashSet<>(outputs).size(), "each record applied once: " + outputs);
  }

  /**
   * The same lost answer, but the whole retry fails on a record its checkpoint covers (a flaky
   * lookup): the pass stops there, and with nothing answered Lambda would take the batch as done
   * and skip the records after the checkpoint, left to a replay of a given-up range.
   */
  @Test
  void aWholeRetryFailingBehindItsCheckpointResumesAfterIt() {
    AtomicInteger failing = new AtomicInteger(6);
    List<String> outputs = new ArrayList<>();
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "lost-answer-failing",
                Pipeline.from(BatchSource.records())
                    .map(
                        bytes -> {
                          String text = new String(bytes, StandardCharsets.UTF_8);
                          if (Integer.parseInt(text) == failing.get()) {
                            failing.set(-1);
                            throw new IllegalStateException("a lookup timed out");
                          }
                          return text;
                        })
                    .keyBy(text -> "k" + Integer.parseInt(text) % 4)
                    .reduce((a, b) -> a + " " + b, Serdes.string())
                    .to(
                        EgressOutput.to(
                            records -> records.forEach(r -> outputs.add(r.id())),
                            TypeName.of("test", "runs"),
                            Types.stringType())))
            .store(new InMemoryBatchStore())
            .build();

    assertEquals(List.of(sequence(6)), pipeline.process(batch(0, 10)).failedOffsets());
    // The answer was lost, and the whole batch's retry fails on record 1, which 5 covers.
    failing.set(1);
    BatchResult again = pipeline.process(batch(0, 10));
    assertEquals(List.of(sequence(6)), again.failedOffsets(), "Lambda must resume at 6: " + again);
    BatchResult rest = pipeline.process(batch(6, 10));

    assertEquals(List.of(), rest.failedOffsets());
    assertEquals(10, new HashSet<>(outputs).size(), "each record applied once: " + outputs);
  }

  private static SourceBatch batch(int from, int to) {
    SourceBatch.Builder batch = SourceBatch.ordered("clicks/shardId-000000000000");
    for (int i = from; i < to; i++) {
      batch.add(sequence(i), 0, Integer.toString(i).getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** Counts, slowly. */
  private static final class SlowCount implements AggregateFunction<String, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(String value, Long accumulator) {
      DeadlineTries.slowly();
      return accumulator + 1;
    }

    @Override
    public Long result(Long accumulator) {
      return accumulator;
    }
  }
}
