package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.EgressRecord;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.DataStream;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.RunOptions;
import dev.statekit.stream.Sources;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Run in process, {@link EgressOutput} gives each record an id that a sink writing by id (a table,
 * a FIFO queue's deduplication, a function address) keeps apart from every other record's, and that
 * a run over the same input repeats. Ids were made of the egress, key and timestamp, counted per
 * checkpoint and writer: records of one key with one timestamp in two checkpoints, or of two
 * writers, had one id, and such a sink kept one of them (200,000 running counts of three keys with
 * one timestamp had 24,700 ids).
 */
class InProcessEgressIdsTest {
  private static final TypeName OUT = TypeName.of("test", "out");

  /** Every record each run delivered, by id; fails if two records of a run share one. */
  private static Map<String, String> byId(
      Function<DataStream<String>, DataStream<String>> job, long records, RunOptions options)
      throws Exception {
    List<EgressRecord> delivered = new CopyOnWriteArrayList<>();
    job.apply(Pipeline.from(Sources.generate(records, i -> "k" + (i % 3) + ":" + i, i -> 0L, 100)))
        .to(EgressOutput.to(delivered::addAll, OUT, Types.stringType()))
        .run(options);
    Map<String, String> byId = new TreeMap<>();
    for (EgressRecord record : delivered) {
      String before = byId.put(record.id(), record.textOrBase64());
      assertEquals(null, before, "two records of id " + record.id() + " in one run");
    }
    return byId;
  }

  private static RunOptions every(Duration interval, int parallelism) {
    return RunOptions.named("ids").parallelism(parallelism).checkpointInterval(interval).build();
  }

  @Test
  void keyedResultsOfOneTimestampAcrossCheckpointsEachHaveTheirOwnId() throws Exception {
    Map<String, String> ids =
        byId(
            in ->
                in.keyBy(s -> s.substring(0, 2), 2)
                    .reduce((a, b) -> a.substring(0, 3) + b.substring(b.indexOf(':') + 1)),
            200_000,
            every(Duration.ofMillis(1), 2));
    assertEquals(200_000, ids.size());
  }

  @Test
  void unkeyedResultsOfTwoWritersEachHaveTheirOwnId() throws Exception {
    assertEquals(20_000, byId(in -> in.map(s -> s + "!"), 20_000, every(Duration.ZERO, 2)).size());
  }

  /**
   * The same input run twice, checkpoints falling elsewhere: the same ids with the same values, as
   * a replay from a checkpoint must give for a sink to keep each record once.
   */
  @Test
  void aRunOverTheSameInputRepeatsEveryIdWithItsValue() throws Exception {
    Map<String, String> first =
        byId(
            in -> in.keyBy(s -> s.substring(0, 2), 1).reduce((a, b) -> a + "|" + b.length()),
            20_000,
            every(Duration.ofMillis(1), 1));
    Map<String, String> second =
        byId(
            in -> in.keyBy(s -> s.substring(0, 2), 1).reduce((a, b) -> a + "|" + b.length()),
            20_000,
            every(Duration.ofMillis(50), 1));
    assertEquals(20_000, first.size());
    assertEquals(first, second);
  }

  /** A window's results have no source record: named by key and window, once each. */
  @Test
  void windowResultsEachHaveTheirOwnId() throws Exception {
    List<EgressRecord> delivered = new CopyOnWriteArrayList<>();
    Pipeline.from(Sources.generate(30_000, i -> "k" + (i % 3), i -> i, 100))
        .withWatermarks(WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ZERO))
        .keyBy(s -> s, 2)
        .window(Windows.tumbling(Duration.ofSeconds(1)))
        .aggregate(AggregateFunction.count())
        .map(String::valueOf)
        .to(EgressOutput.to(delivered::addAll, OUT, Types.stringType()))
        .run(every(Duration.ofMillis(1), 2));
    assertEquals(90, delivered.size());
    assertEquals(90, delivered.stream().map(EgressRecord::id).distinct().count());
  }

  /**
   * Keys are named in ids as the state table names them (a string as itself, another key by its
   * serialized form), not by their {@code toString}: {@code List.of("a, b")} and {@code
   * List.of("a", "b")} both print {@code [a, b]}, and their windows' results had one id whenever
   * two workers (or two checkpoints) delivered them.
   */
  @Test
  void keysThatPrintAlikeHaveResultsOfTheirOwnIds() throws Exception {
    List<EgressRecord> delivered = new CopyOnWriteArrayList<>();
    Pipeline.from(Sources.generate(40, i -> (int) i, i -> 0L, 100))
        .withWatermarks(WatermarkStrategy.<Integer>boundedOutOfOrderness(Duration.ZERO))
        .keyBy(i -> i % 2 == 0 ? List.of("a, b" + i / 2) : List.of("a", "b" + i / 2), 2)
        .window(Windows.tumbling(Duration.ofSeconds(1)))
        .aggregate(AggregateFunction.count())
        .map(String::valueOf)
        .to(EgressOutput.to(delivered::addAll, OUT, Types.stringType()))
        .run(every(Duration.ofMillis(1), 2));
    assertEquals(40, delivered.size());
    assertEquals(40, delivered.stream().map(EgressRecord::id).distinct().count());
  }
}
