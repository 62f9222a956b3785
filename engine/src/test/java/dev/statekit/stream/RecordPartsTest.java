package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Records that {@code Sources.generate} hands to a keyed stage as their parts (value, offset,
 * timestamp, split in the chunk's arrays, the record made on the worker) are the records it would
 * have made itself: the same job over {@code fromRecords}, whose records travel as objects, must
 * write exactly the same records (key, value, timestamp, headers, position), each once and in each
 * reader's order per key. Chunks of one to three records in queues of one or two chunks, a
 * checkpoint every millisecond, one and two readers: recycled chunks, parked half-done chunks and
 * barriers between nearly every two records.
 */
class RecordPartsTest {
  private static final int KEYS = 13;
  private static final long RECORDS = 12_000;
  private static final int BATCH = 7;

  record Item(int key, long index, long sum) {}

  private static long timestamp(long i) {
    return 1_700_000_000_000L + 3 * i;
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 1", "2, 1, 2", "3, 2, 2", "1024, 8, 2"})
  void reduceWritesTheRecordsTheSourceWouldHaveMade(int chunk, int queue, int parallelism)
      throws Exception {
    Function<Source<Item>, List<Record<Object>>> job =
        source -> run(source, chunk, queue, parallelism, "reduce", true);
    List<Record<Object>> parts = job.apply(generated());
    List<Record<Object>> objects = job.apply(asRecords());
    assertSameRecords(objects, parts, parallelism, true);
    for (Record<Object> record : parts) {
      Item item = (Item) record.value();
      assertEquals(timestamp(item.index()), record.timestamp(), record.toString());
      assertEquals(Long.toString(item.index()), record.position().offset(), record.toString());
      assertEquals(item.key(), record.key(), record.toString());
    }
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 1", "2, 1, 2", "3, 2, 2", "1024, 8, 2"})
  void keyedProcessSeesTheRecordsTheSourceWouldHaveMade(int chunk, int queue, int parallelism)
      throws Exception {
    Function<Source<Item>, List<Record<Object>>> job =
        source -> run(source, chunk, queue, parallelism, "process", false);
    assertSameRecords(job.apply(asRecords()), job.apply(generated()), parallelism, false);
  }

  private static Source<Item> generated() {
    return Sources.generate(
        RECORDS, i -> new Item((int) (i % KEYS), i, 1), RecordPartsTest::timestamp, BATCH);
  }

  private static Source<Item> asRecords() {
    List<Record<Item>> records =
        LongStream.range(0, RECORDS)
            .mapToObj(i -> Record.of(new Item((int) (i % KEYS), i, 1), timestamp(i)))
            .toList();
    return Sources.fromRecords(records, BATCH);
  }

  private static List<Record<Object>> run(
      Source<Item> source, int chunk, int queue, int parallelism, String name, boolean reduce) {
    Records sink = new Records();
    KeyedStream<Integer, Item> keyed = Pipeline.from(source).keyBy(Item::key, 2);
    DataStream<Item> out =
        reduce
            ? keyed.reduce((a, b) -> new Item(b.key(), b.index(), a.sum() + b.sum()))
            // A keyed process emits values; the record it was given is checked through its key.
            : keyed.process(
                (Record<Item> record, KeyedContext<Integer> context, Collector<Item> o) -> {
                  Item item = record.value();
                  long expected = timestamp(item.index());
                  boolean same =
                      record.timestamp() == expected
                          && record.key().equals(item.key())
                          && record.position().offset().equals(Long.toString(item.index()))
                          && record.headers().isEmpty();
                  o.collect(same ? item : new Item(item.key(), item.index(), -1));
                });
    try {
      PipelineResult result =
          out.to(sink)
              .run(
                  RunOptions.named(name + "-" + source.name().replaceAll("[^a-z]", ""))
                      .parallelism(parallelism)
                      .handOff(chunk, queue)
                      .checkpointInterval(Duration.ofMillis(1))
                      .build());
      assertTrue(result.checkpoints() >= 1, result.toString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return new ArrayList<>(sink.records);
  }

  /**
   * The same records by index, each once, with each reader's records of a key in order. Values are
   * compared by index: with two readers a key's running sum depends on how their records
   * interleave, which differs between runs; the running sums of a key must be 1 to n, each once.
   */
  private static void assertSameRecords(
      List<Record<Object>> expected, List<Record<Object>> actual, int readers, boolean summed) {
    assertEquals(RECORDS, actual.size(), "as many records as read");
    Map<Long, Record<Object>> byIndex = new HashMap<>();
    for (Record<Object> record : expected) {
      byIndex.put(((Item) record.value()).index(), record);
    }
    assertEquals(RECORDS, byIndex.size());
    Map<Integer, long[]> lastPerReader = new HashMap<>();
    Map<Integer, java.util.Set<Long>> sums = new HashMap<>();
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (Record<Object> record : actual) {
      Item item = (Item) record.value();
      assertTrue(seen.add(item.index()), "record " + item.index() + " twice");
      assertTrue(item.sum() >= 0, "the record a keyed process saw differs: " + record);
      if (summed) {
        assertTrue(
            sums.computeIfAbsent(item.key(), k -> new java.util.HashSet<>()).add(item.sum()),
            "key " + item.key() + " reached sum " + item.sum() + " twice");
      }
      Record<Object> want = byIndex.get(item.index());
      assertEquals(want.withValue(item.index()), record.withValue(item.index()), record.toString());
      assertEquals(want.position(), record.position(), record.toString());
      // Per key, each reader's records arrive in the reader's order.
      int reader = (int) (item.index() / BATCH % readers);
      long[] last = lastPerReader.computeIfAbsent(item.key(), k -> new long[] {-1, -1});
      assertTrue(item.index() > last[reader], "key " + item.key() + " out of order: " + record);
      last[reader] = item.index();
    }
    sums.forEach(
        (key, set) -> {
          for (long n = 1; n <= set.size(); n++) {
            assertTrue(set.contains(n), "key " + key + " sums " + set);
          }
        });
  }

  /** Keeps every record written, as written. */
  private static final class Records implements Sink<Object> {
    final ConcurrentLinkedQueue<Record<Object>> records = new ConcurrentLinkedQueue<>();

    @Override
    public SinkWriter<Object> open(int worker, int workers) {
      return records::add;
    }
  }
}
