package dev.statekit.benchmarks.operators;

import dev.statekit.benchmarks.operators.Input.KeyedCount;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.Record;
import dev.statekit.stream.RunOptions;
import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.Source;
import dev.statekit.stream.Sources;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/** Jobs A and B on StateKit with in-memory state. */
final class StatekitJobs {
  private StatekitJobs() {}

  private static Source<KeyedCount> input(long records) {
    return Sources.generate(
        records,
        i -> {
          Timing.recordStarted(i);
          return new KeyedCount(Input.key(i), 1);
        },
        i -> i,
        Sources.DEFAULT_BATCH);
  }

  /**
   * Job A: keyBy, running sum, counting sink, with the source split over {@code parallelism}
   * readers. Returns records per second.
   */
  static Timing.Throughput jobA(long records, int parallelism) throws InterruptedException {
    CountingSink sink = new CountingSink();
    Timing.reset();
    Pipeline.from(input(records))
        .keyBy(KeyedCount::key, parallelism)
        .reduce((a, b) -> new KeyedCount(a.key(), a.count() + b.count()))
        .to(sink)
        .run(RunOptions.named("job-a").parallelism(parallelism).build());
    Timing.done();
    check(records, sink.count.sum());
    return Timing.throughput(records);
  }

  /**
   * Job B: 200 ms out-of-orderness, keyBy, 1 s tumbling windows counting, counting sink; one source
   * reader.
   */
  static Timing.Throughput jobB(long records, int parallelism) throws InterruptedException {
    CountingSink sink = new CountingSink();
    Timing.reset();
    Pipeline.from(input(records))
        .withWatermarks(WatermarkStrategy.<KeyedCount>boundedOutOfOrderness(Duration.ofMillis(200)))
        .keyBy(KeyedCount::key, parallelism)
        .window(Windows.tumbling(Duration.ofSeconds(1)))
        .aggregate(AggregateFunction.count())
        .to(sink)
        .run(RunOptions.named("job-b").build());
    Timing.done();
    // Each 1 s window holds 1000 records of 1000 distinct keys: one count per record.
    check(records, sink.count.sum());
    return Timing.throughput(records);
  }

  static void check(long expected, long counted) {
    if (expected != counted) {
      throw new IllegalStateException("expected " + expected + " outputs, counted " + counted);
    }
  }

  /** Counts in a plain field per writer, published on close. */
  static final class CountingSink implements Sink<Object> {
    final LongAdder count = new LongAdder();

    @Override
    public SinkWriter<Object> open(int worker, int workers) {
      return new SinkWriter<>() {
        private long n;

        @Override
        public void write(Record<Object> record) {
          n++;
        }

        @Override
        public void close() {
          count.add(n);
          Timing.writerClosed();
        }
      };
    }
  }
}
