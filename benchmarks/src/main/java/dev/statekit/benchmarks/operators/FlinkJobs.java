package dev.statekit.benchmarks.operators;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;

/**
 * Jobs A and B on Flink's local execution in streaming mode with the heap state backend, keyed
 * operators and sink at the given parallelism. Job A's source runs at that parallelism too (as
 * StateKit's split source does); job B's at parallelism 1 in both engines, since Flink's sequence
 * source splits into contiguous ranges whose watermarks would lie far apart.
 */
final class FlinkJobs {
  static final LongAdder COUNT = new LongAdder();

  private FlinkJobs() {}

  private static StreamExecutionEnvironment environment(int parallelism) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.setParallelism(parallelism);
    return env;
  }

  /** Job A: keyBy, running sum (reduce), counting sink. */
  static Timing.Throughput jobA(long records, int parallelism) throws Exception {
    StreamExecutionEnvironment env = environment(parallelism);
    DataStream<Tuple2<String, Long>> input =
        env.fromSequence(0, records - 1)
            .map(
                i -> {
                  Timing.recordStarted(i);
                  return Tuple2.of(Input.key(i), 1L);
                })
            .returns(Types.TUPLE(Types.STRING, Types.LONG));
    input
        .keyBy(t -> t.f0)
        .reduce((a, b) -> Tuple2.of(a.f0, a.f1 + b.f1))
        .sinkTo(new CountingSink<>());
    return run(env, "job A", records, records);
  }

  /** Job B: 200 ms watermarks, keyBy, 1 s tumbling event-time windows counting, counting sink. */
  static Timing.Throughput jobB(long records, int parallelism) throws Exception {
    StreamExecutionEnvironment env = environment(parallelism);
    DataStream<Tuple3<String, Long, Long>> input =
        env.fromSequence(0, records - 1)
            .setParallelism(1)
            .map(
                i -> {
                  Timing.recordStarted(i);
                  return Tuple3.of(Input.key(i), 1L, i);
                })
            .returns(Types.TUPLE(Types.STRING, Types.LONG, Types.LONG))
            .setParallelism(1)
            .assignTimestampsAndWatermarks(
                WatermarkStrategy.<Tuple3<String, Long, Long>>forBoundedOutOfOrderness(
                        Duration.ofMillis(200))
                    .withTimestampAssigner((t, ts) -> t.f2))
            .setParallelism(1);
    input
        .keyBy(t -> t.f0)
        .window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
        .aggregate(new Count())
        .sinkTo(new CountingSink<>());
    return run(env, "job B", records, records);
  }

  private static Timing.Throughput run(
      StreamExecutionEnvironment env, String name, long records, long outputs) throws Exception {
    Timing.reset();
    COUNT.reset();
    env.execute(name);
    Timing.done();
    StatekitJobs.check(outputs, COUNT.sum());
    return Timing.throughput(records);
  }

  /** Counts values per window. */
  static final class Count implements AggregateFunction<Tuple3<String, Long, Long>, Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(Tuple3<String, Long, Long> value, Long accumulator) {
      return accumulator + value.f1;
    }

    @Override
    public Long getResult(Long accumulator) {
      return accumulator;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  /** Counts in a plain field per writer, published on close. */
  static final class CountingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        private long n;

        @Override
        public void write(T element, Context context) {
          n++;
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {
          COUNT.add(n);
          Timing.writerClosed();
        }
      };
    }
  }
}
